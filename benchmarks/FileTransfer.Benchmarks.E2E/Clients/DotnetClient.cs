using System.Buffers;
using System.Net;
using System.Net.Http.Json;
using System.Security.Cryptography;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>
/// HttpClient the way a careful user sets it up for big files: SocketsHttpHandler, no proxy,
/// cookies or decompression, the exact protocol version, response headers read first and the
/// body copied through one pooled buffer. The HTTP/2 stream window (RFC 9113 6.9.2) is left to
/// SocketsHttpHandler's dynamic sizing: a fixed 16 MiB initial window measured no faster on
/// loopback and made the client buffer (and allocate) far more (benchmarks/RESULTS.md).
/// </summary>
internal sealed class DotnetClient : IDisposable
{
    private const int BufferSize = 128 * 1024;
    private readonly HttpClient _client;
    private readonly Version _version;

    /// <param name="http2">HTTP/2 (h2c with prior knowledge) rather than HTTP/1.1.</param>
    /// <param name="authenticate">Send ours's API key; false for URLs that are their own credential (a store's presigned URL refuses a second one).</param>
    public DotnetClient(bool http2, bool authenticate = true)
    {
        _version = http2 ? HttpVersion.Version20 : HttpVersion.Version11;
        var handler = new SocketsHttpHandler
        {
            UseProxy = false,
            UseCookies = false,
            AutomaticDecompression = DecompressionMethods.None,
            EnableMultipleHttp2Connections = true,
            MaxConnectionsPerServer = int.MaxValue,
        };
        _client = new HttpClient(handler) { Timeout = TimeSpan.FromMinutes(30) };
        if (authenticate)
        {
            _client.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", Infrastructure.OurServer.ApiKey);
        }
    }

    public string Protocol => _version == HttpVersion.Version20 ? "HTTP/2" : "HTTP/1.1";

    /// <summary>Downloads <paramref name="url"/>; returns the byte count and, when asked, the lowercase hex SHA-256.</summary>
    public async Task<(long Bytes, string? Sha256)> DownloadAsync(Uri url, bool hash)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, url) { Version = _version, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        using var response = await _client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        response.EnsureSuccessStatusCode();
        await using var body = await response.Content.ReadAsStreamAsync();
        using var sha = hash ? IncrementalHash.CreateHash(HashAlgorithmName.SHA256) : null;
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            long total = 0;
            int read;
            while ((read = await body.ReadAsync(buffer)) > 0)
            {
                sha?.AppendData(buffer, 0, read);
                total += read;
            }

            return (total, sha is null ? null : Convert.ToHexStringLower(sha.GetHashAndReset()));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>PUTs a file (raw body, upload API contract); returns the status and the server's SHA-256.</summary>
    public async Task<(HttpStatusCode Status, string? Sha256)> UploadAsync(Uri url, string path)
    {
        await using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous | FileOptions.SequentialScan);
        using var content = new StreamContent(file, BufferSize);
        content.Headers.ContentType = new("application/octet-stream");
        content.Headers.ContentLength = file.Length;
        using var request = new HttpRequestMessage(HttpMethod.Put, url) { Version = _version, VersionPolicy = HttpVersionPolicy.RequestVersionExact, Content = content };
        using var response = await _client.SendAsync(request);
        if (!response.IsSuccessStatusCode)
        {
            return (response.StatusCode, null);
        }

        // Ours answers the stored file as JSON; nginx's WebDAV answers 201 or 204 without a body.
        if (response.Content.Headers.ContentType?.MediaType?.Contains("json", StringComparison.Ordinal) != true)
        {
            return (response.StatusCode, null);
        }

        var stored = await response.Content.ReadFromJsonAsync<StoredFile>();
        return (response.StatusCode, stored?.Sha256);
    }

    /// <summary>DELETEs <paramref name="url"/>: a case's clean-up of what it stored.</summary>
    public async Task DeleteAsync(Uri url)
    {
        using var request = new HttpRequestMessage(HttpMethod.Delete, url) { Version = _version, VersionPolicy = HttpVersionPolicy.RequestVersionExact };
        using var response = await _client.SendAsync(request);
    }

    public void Dispose() => _client.Dispose();

    private sealed record StoredFile(string Name, long Size, string? Sha256);
}
