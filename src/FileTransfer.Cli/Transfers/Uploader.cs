using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using FileTransfer.Cli.Http;
using FileTransfer.Cli.Progress;

namespace FileTransfer.Cli.Transfers;

/// <summary>
/// Streams a local file to <c>PUT api/files/{name}</c>: one pass to compute its SHA-256, then the
/// body straight from disk with <c>Content-Digest</c> (RFC 9530 2) so that the server verifies the
/// bytes before it commits them. The file is never held in memory.
/// </summary>
internal sealed class Uploader(HttpClient client, ClientSettings settings)
{
    private const int BufferSize = 128 * 1024;

    public async Task<UploadResult> RunAsync(string localPath, RemoteFile target, bool noOverwrite, ITransferProgress progress, CancellationToken cancellationToken)
    {
        var info = new FileInfo(localPath);
        if (!info.Exists)
        {
            throw new CliException(ExitCodes.NotFound, $"There is no local file '{localPath}'.");
        }

        var digest = await HashAsync(info, progress.Start($"sha-256 {info.Name}", info.Length), cancellationToken);

        var line = progress.Start(target.FileName, info.Length);
        await using var body = new ProgressStream(OpenRead(info), line);
        using var request = RestClient.Request(HttpMethod.Put, target, settings);
        request.Content = new StreamContent(body, BufferSize);
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        request.Content.Headers.ContentLength = info.Length;
        request.Headers.TryAddWithoutValidation(Digests.ContentDigest, Digests.FormatSha256(digest));
        if (noOverwrite)
        {
            // RFC 9110 13.1.2: "If-None-Match: *" succeeds only when no current file exists.
            request.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any);
        }

        using var response = await Network.SendAsync(client, request, cancellationToken);
        await ResponseErrors.EnsureSuccessAsync(response, target.Name, cancellationToken);
        line.Complete();

        var stored = await response.Content.ReadFromJsonAsync<StoredFile>(cancellationToken);
        var hex = Digests.Hex(digest);
        if (stored?.Sha256 is { } reported && !reported.Equals(hex, StringComparison.OrdinalIgnoreCase))
        {
            throw new CliException(ExitCodes.DigestMismatch, $"The server stored '{target.Name}' with sha-256 {reported}, but the local file hashes to {hex}.");
        }

        return new UploadResult(stored?.Name ?? target.Name, info.Length, hex, Created: response.StatusCode == HttpStatusCode.Created);
    }

    private static async Task<byte[]> HashAsync(FileInfo info, IProgressLine line, CancellationToken cancellationToken)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            await using var stream = OpenRead(info);
            int read;
            while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
            {
                hash.AppendData(buffer, 0, read);
                line.Add(read);
            }

            line.Complete();
            return hash.GetHashAndReset();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static FileStream OpenRead(FileInfo info) =>
        new(info.FullName, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 0, FileOptions.Asynchronous | FileOptions.SequentialScan);

    /// <summary>The upload contract's answer: <c>{ name, size, contentType, lastModified, eTag, sha256 }</c>.</summary>
    private sealed record StoredFile(string? Name, long Size, string? ETag, string? Sha256);
}

/// <summary>What a finished upload stored.</summary>
internal sealed record UploadResult(string Name, long Size, string Sha256, bool Created);
