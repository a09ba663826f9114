using System.Buffers;
using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using FileTransfer.Cli.Http;
using FileTransfer.Cli.Progress;

namespace FileTransfer.Cli.Transfers;

/// <summary>
/// Downloads into <c>PATH.part</c>, resuming what is there with <c>Range</c> + <c>If-Range</c>,
/// verifies the whole file against <c>Repr-Digest</c> (RFC 9530 3) and only then renames it.
/// </summary>
internal sealed class Downloader(HttpClient client, ClientSettings settings, TextWriter notes)
{
    private const int BufferSize = 128 * 1024;

    public async Task<DownloadResult> RunAsync(RemoteFile file, PartialFile part, ITransferProgress progress, CancellationToken cancellationToken)
    {
        var offset = part.Length;
        using var request = RestClient.Request(HttpMethod.Get, file, settings);
        if (offset > 0)
        {
            request.Headers.Range = new RangeHeaderValue(offset, null);
            if (part.Validator is { } validator && EntityTagHeaderValue.TryParse(validator, out var eTag))
            {
                request.Headers.IfRange = new RangeConditionHeaderValue(eTag);
            }
            else
            {
                Note($"{part.PartPath} has no recorded ETag; resuming and relying on the digest check.");
            }
        }

        using var response = await Network.SendAsync(client, request, cancellationToken);
        if (response.StatusCode == HttpStatusCode.RequestedRangeNotSatisfiable && offset > 0)
        {
            // The partial file is at least as long as the file now is: it cannot be a prefix of it.
            Note($"{part.PartPath} is longer than the file on the server; starting over.");
            part.Discard();
            return await RunAsync(file, part, progress, cancellationToken);
        }

        await ResponseErrors.EnsureSuccessAsync(response, file.Name, cancellationToken);
        if (response.StatusCode == HttpStatusCode.OK && offset > 0)
        {
            // RFC 9110 13.1.5: a 200 to If-Range means the file changed since the partial bytes were
            // fetched (or the server ignores ranges); the whole file follows, so start the part over.
            Note($"The file changed on the server since {part.PartPath} was written; downloading it again from the start.");
            offset = 0;
        }
        else if (response.StatusCode == HttpStatusCode.PartialContent && response.Content.Headers.ContentRange?.From != offset)
        {
            throw new CliException(ExitCodes.Other, $"The server answered a range that does not start at byte {offset}.");
        }

        var total = response.Content.Headers.ContentRange?.Length ?? response.Content.Headers.ContentLength;
        var expected = Digests.ReadSha256(response, Digests.ReprDigest);
        part.SaveValidator(response.Headers.ETag is { IsWeak: false } strong ? strong.ToString() : null);

        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        long received;
        await using (var output = part.Open(offset))
        {
            await HashPrefixAsync(output, offset, hash, cancellationToken);
            var line = progress.Start(file.FileName, total, offset);
            received = offset + await CopyBodyAsync(response, output, hash, line, part, offset, total, cancellationToken);
            line.Complete();
        }

        if (total is { } length && received != length)
        {
            throw new CliException(ExitCodes.ConnectionLost, $"The download stopped after {received} of {length} bytes; {part.PartPath} is kept: run the same command again to resume.");
        }

        var actual = hash.GetHashAndReset();
        if (expected is null)
        {
            Note("The server sent no Repr-Digest header; the SHA-256 of the download was not verified.");
        }
        else if (!CryptographicOperations.FixedTimeEquals(expected, actual))
        {
            part.Discard();
            throw new CliException(ExitCodes.DigestMismatch,
                $"Digest mismatch for '{file.Name}': the server announced sha-256 {Digests.Hex(expected)}, the bytes received hash to {Digests.Hex(actual)}. The partial file was deleted.");
        }

        part.Commit();
        return new DownloadResult(part.OutputPath, received, actual, Verified: expected is not null, ResumedAt: offset);
    }

    private static async Task HashPrefixAsync(FileStream output, long offset, IncrementalHash hash, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        try
        {
            output.Position = 0;
            for (long left = offset; left > 0;)
            {
                var read = await output.ReadAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, left)), cancellationToken);
                if (read == 0)
                {
                    throw new IOException("The partial file shrank while it was being read.");
                }

                hash.AppendData(buffer, 0, read);
                left -= read;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static async Task<long> CopyBodyAsync(
        HttpResponseMessage response, FileStream output, IncrementalHash hash, IProgressLine line, PartialFile part, long offset, long? total, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        using var stall = new StallGuard(cancellationToken);
        long copied = 0;
        try
        {
            await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
            while (true)
            {
                int read;
                try
                {
                    read = await body.ReadAsync(buffer, stall.Arm());
                }
                catch (Exception e) when (e is IOException || (e is OperationCanceledException && stall.Stalled))
                {
                    var why = stall.Stalled ? $"no data for {StallGuard.Limit.TotalSeconds:0} s" : e.Message;
                    throw new CliException(ExitCodes.ConnectionLost,
                        $"The connection was lost after {offset + copied} of {total?.ToString() ?? "?"} bytes ({why}); {part.PartPath} is kept: run the same command again to resume.", e);
                }

                if (read == 0)
                {
                    return copied;
                }

                await output.WriteAsync(buffer.AsMemory(0, read), cancellationToken);
                hash.AppendData(buffer, 0, read);
                copied += read;
                line.Add(read);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Note(string message)
    {
        if (!settings.Quiet)
        {
            notes.WriteLine(message);
        }
    }
}

/// <summary>What a finished download produced.</summary>
internal sealed record DownloadResult(string Path, long Size, byte[] Sha256, bool Verified, long ResumedAt);
