using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Runtime.CompilerServices;
using System.Text.Json;

namespace FileTransfer.Client.Transport.Rest;

/// <summary>The REST API: <c>HEAD</c>/<c>GET</c>/<c>PUT</c>/<c>DELETE api/files/{name}</c> and <c>GET api/files</c>.</summary>
internal sealed partial class RestTransport(HttpClient http, Uri server, string? apiKey, Version? httpVersion, bool ownsClient) : IFileTransport
{
    private const int BufferSize = 128 * 1024;

    public async Task<RemoteFileInfo> GetInfoAsync(string name, CancellationToken cancellationToken)
    {
        var target = RestTarget.Resolve(name, server);
        using var request = Request(HttpMethod.Head, target);
        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, target.Name, mustNotExist: false, cancellationToken);
        return Describe(response, target.Name, response.Content.Headers.ContentLength ?? -1);
    }

    public async IAsyncEnumerable<RemoteFileInfo> ListAsync(string? prefix, int pageSize, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        // One JSON array per page, read item by item as it streams in; while more files follow the
        // server adds Link: <next page>; rel="next" (RFC 8288), and the last page has none.
        for (Uri? url = RestTarget.ListUrl(server, prefix, pageSize); url is not null;)
        {
            using var request = Request(HttpMethod.Get, url, apiKey);
            using var response = await SendAsync(request, cancellationToken);
            await RestErrors.EnsureSuccessAsync(response, "api/files", mustNotExist: false, cancellationToken);
            await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
            await foreach (var file in JsonSerializer.DeserializeAsyncEnumerable(body, RestJson.Default.RestFile, cancellationToken))
            {
                if (file is not null)
                {
                    yield return file.ToInfo(response.Version);
                }
            }

            url = NextPage(response, url);
        }
    }

    /// <summary>The target of <c>Link: &lt;URL&gt;; rel="next"</c>, resolved against the page it came with.</summary>
    internal static Uri? NextPage(HttpResponseMessage response, Uri current)
    {
        if (!response.Headers.TryGetValues("Link", out var values))
        {
            return null;
        }

        foreach (var link in values.SelectMany(v => v.Split(',')))
        {
            var parts = link.Split(';');
            var target = parts[0].Trim();
            if (target.Length > 2 && target[0] == '<' && target[^1] == '>'
                && parts.Skip(1).Any(p => p.Trim().Replace(" ", string.Empty, StringComparison.Ordinal) is "rel=\"next\"" or "rel=next"))
            {
                return new Uri(current, target[1..^1]);
            }
        }

        return null;
    }

    public async Task DeleteAsync(string name, string? ifMatch, CancellationToken cancellationToken)
    {
        var target = RestTarget.Resolve(name, server);
        using var request = Request(HttpMethod.Delete, target);
        if (ifMatch is not null)
        {
            request.Headers.IfMatch.Add(ParseETag(ifMatch));
        }

        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, target.Name, mustNotExist: false, cancellationToken);
    }

    public async Task<DownloadResponse> OpenDownloadAsync(string name, long offset, string? ifRange, CancellationToken cancellationToken)
    {
        var target = RestTarget.Resolve(name, server);
        using var request = Request(HttpMethod.Get, target);
        if (offset > 0)
        {
            request.Headers.Range = new RangeHeaderValue(offset, null);
            if (ifRange is not null)
            {
                request.Headers.IfRange = new RangeConditionHeaderValue(ParseETag(ifRange));
            }
        }

        var response = await SendAsync(request, cancellationToken);
        try
        {
            await RestErrors.EnsureSuccessAsync(response, target.Name, mustNotExist: false, cancellationToken);
            var start = offset;
            if (response.StatusCode == HttpStatusCode.OK)
            {
                // RFC 9110 13.1.5: a 200 to If-Range means the file changed since the partial bytes were
                // fetched (or the server ignores ranges); the whole file follows.
                start = 0;
            }
            else if (response.Content.Headers.ContentRange?.From != offset)
            {
                throw new FileTransferException(FileTransferErrorKind.ServerError, $"The server answered a range that does not start at byte {offset}.");
            }

            var size = response.Content.Headers.ContentRange?.Length ?? response.Content.Headers.ContentLength ?? -1;
            return new DownloadResponse(Describe(response, target.Name, size), start, ReadBodyAsync(response, target.Url), response);
        }
        catch
        {
            response.Dispose();
            throw;
        }
    }

    public async Task<UploadResponse> UploadAsync(UploadRequest upload, Stream content, Action<int> sent, CancellationToken cancellationToken)
    {
        var target = RestTarget.Resolve(upload.Name, server);
        long sentBytes = 0;
        using var request = Request(HttpMethod.Put, target);
        request.Content = new UploadContent(content, upload.Length, upload.ChunkSize, count =>
        {
            sentBytes += count;
            sent(count);
        });
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        if (upload.Length != 0)
        {
            // The server refuses a wrong key, an existing file (If-None-Match: *), a size over its limit or
            // a folder's name before it reads the body: with the expectation, no byte of the body is sent then.
            request.Headers.ExpectContinue = true;
        }
        if (upload.Sha256 is { } digest)
        {
            // RFC 9530 2: the server verifies the bytes against it before it commits them.
            request.Headers.TryAddWithoutValidation(ReprDigest.ContentDigest, ReprDigest.FormatSha256(digest));
        }

        if (!upload.Overwrite)
        {
            // RFC 9110 13.1.2: "If-None-Match: *" succeeds only when no current file exists.
            request.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any);
        }

        HttpResponseMessage response;
        try
        {
            response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        }
        catch (Exception e) when (HttpHandlers.IsConnectionFailure(e) && sentBytes > 0)
        {
            throw new FileTransferException(FileTransferErrorKind.ConnectionLost,
                $"The connection to {target.Url.GetLeftPart(UriPartial.Authority)} was lost after {sentBytes} bytes of the upload: {HttpHandlers.Innermost(e).Message}",
                innerException: e);
        }
        catch (Exception e) when (HttpHandlers.IsConnectionFailure(e))
        {
            throw RestErrors.Unreachable(target.Url, e);
        }

        using (response)
        {
            await RestErrors.EnsureSuccessAsync(response, target.Name, mustNotExist: !upload.Overwrite, cancellationToken);
            var stored = await response.Content.ReadFromJsonAsync(RestJson.Default.RestFile, cancellationToken)
                ?? throw new FileTransferException(FileTransferErrorKind.ServerError, "The server answered the upload without describing the stored file.");
            return new UploadResponse(stored.ToInfo(response.Version), Created: response.StatusCode == HttpStatusCode.Created);
        }
    }

    public void Dispose()
    {
        if (ownsClient)
        {
            http.Dispose();
        }
    }

    /// <summary>
    /// "2" on http:// is HTTP/2 with prior knowledge (h2c, RFC 9113 3.3): the server's cleartext
    /// HTTP/2 port speaks nothing else. On https:// ALPN negotiates; without a version it may fall back to 1.1.
    /// </summary>
    internal static (Version Version, HttpVersionPolicy Policy) VersionFor(Version? requested, Uri target) => requested switch
    {
        { Major: 2 } => (HttpVersion.Version20, HttpVersionPolicy.RequestVersionExact),
        { } => (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact),
        null when target.Scheme == Uri.UriSchemeHttps => (HttpVersion.Version20, HttpVersionPolicy.RequestVersionOrLower),
        null => (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact),
    };

    // A signed link carries its own authorization: the API key is never sent with it.
    private HttpRequestMessage Request(HttpMethod method, RestTarget target) => Request(method, target.Url, target.IsLink ? null : apiKey);

    private HttpRequestMessage Request(HttpMethod method, Uri url, string? key)
    {
        // Set on each request: HttpClient's DefaultRequestVersion only applies to requests it creates itself.
        var (version, policy) = VersionFor(httpVersion, url);
        var request = new HttpRequestMessage(method, url) { Version = version, VersionPolicy = policy };
        if (key is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", key);
        }

        return request;
    }

    private async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        try
        {
            return await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        }
        catch (Exception e) when (HttpHandlers.IsConnectionFailure(e))
        {
            throw RestErrors.Unreachable(request.RequestUri!, e);
        }
    }

    private static async IAsyncEnumerable<PooledChunk> ReadBodyAsync(HttpResponseMessage response, Uri url, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        // Each read gets an array of its own: the caller keeps the one yielded (PooledChunk).
        byte[]? buffer = null;
        try
        {
            await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
            while (true)
            {
                buffer = System.Buffers.ArrayPool<byte>.Shared.Rent(BufferSize);
                int read;
                try
                {
                    read = await body.ReadAsync(buffer, cancellationToken);
                }
                catch (Exception e) when (HttpHandlers.IsConnectionFailure(e))
                {
                    throw new FileTransferException(FileTransferErrorKind.ConnectionLost,
                        $"The connection to {url.GetLeftPart(UriPartial.Authority)} was lost: {HttpHandlers.Innermost(e).Message}", innerException: e);
                }

                if (read == 0)
                {
                    yield break;
                }

                var chunk = new PooledChunk(buffer, read);
                buffer = null;
                yield return chunk;
            }
        }
        finally
        {
            if (buffer is not null)
            {
                System.Buffers.ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    private static RemoteFileInfo Describe(HttpResponseMessage response, string name, long size) => new()
    {
        Name = name,
        Size = size,
        ContentType = response.Content.Headers.ContentType?.ToString(),
        LastModified = response.Content.Headers.LastModified,
        ETag = response.Headers.ETag is { IsWeak: false } strong ? strong.ToString() : null,
        Sha256 = ReprDigest.ReadSha256(response),
        HttpVersion = response.Version,
    };

    private static EntityTagHeaderValue ParseETag(string eTag) =>
        EntityTagHeaderValue.TryParse(eTag, out var parsed)
            ? parsed
            : throw new FileTransferException(FileTransferErrorKind.InvalidRequest, $"'{eTag}' is not an entity tag (it must be quoted, e.g. \"abc-123\").");
}
