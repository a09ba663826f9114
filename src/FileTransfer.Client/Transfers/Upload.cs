using System.Security.Cryptography;
using FileTransfer.Client.Transport;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// One upload, for every protocol: the SHA-256 first (one pass over a seekable source) so that
/// the server verifies the bytes before it commits them (REST <c>Content-Digest</c>, RFC 9530 2;
/// gRPC <c>sha256</c> in the metadata message), then the bytes streamed, never held in memory.
/// </summary>
internal static class Upload
{
    public static async Task<UploadResult> RunAsync(
        IFileTransport transport, FileTransferClientOptions settings, string name, string localName, Stream content, UploadOptions options,
        IProgress<TransferProgress>? progress, CancellationToken cancellationToken)
    {
        long? length = content.CanSeek ? content.Length - content.Position : null;
        var digest = options.Sha256;
        if (digest is { Length: not 32 })
        {
            throw new ArgumentException("A SHA-256 digest is 32 bytes.", nameof(options));
        }

        if (digest is null && content.CanSeek)
        {
            var origin = content.Position;
            digest = await HashAsync(content, length, localName, progress, cancellationToken);
            content.Position = origin;
        }

        using var running = digest is null ? IncrementalHash.CreateHash(HashAlgorithmName.SHA256) : null;
        var body = running is null ? content : new ReportingStream(content, running.AppendData);
        long sent = 0;
        progress?.Report(new TransferProgress(TransferPhase.Uploading, name, 0, length, 0, IsComplete: false));
        var response = await transport.UploadAsync(
            new UploadRequest(name, length, digest, options.Overwrite, settings.UploadChunkSize),
            body,
            count =>
            {
                sent += count;
                progress?.Report(new TransferProgress(TransferPhase.Uploading, name, sent, length, 0, IsComplete: false));
            },
            cancellationToken);

        var verifiedBefore = digest is not null;
        digest ??= running!.GetHashAndReset();
        if (response.File.Sha256 is { } stored && !CryptographicOperations.FixedTimeEquals(stored, digest))
        {
            throw new FileTransferException(FileTransferErrorKind.DigestMismatch,
                $"The server stored '{response.File.Name}' with sha-256 {Hashing.Hex(stored)}, but the bytes sent hash to {Hashing.Hex(digest)}.");
        }

        progress?.Report(new TransferProgress(TransferPhase.Uploading, name, sent, length ?? sent, 0, IsComplete: true));
        return new UploadResult { File = response.File, Sha256 = digest, VerifiedBeforeCommit = verifiedBefore, Created = response.Created };
    }

    internal static async Task<byte[]> HashAsync(Stream content, long? length, string localName, IProgress<TransferProgress>? progress, CancellationToken cancellationToken)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        long done = 0;
        progress?.Report(new TransferProgress(TransferPhase.Hashing, localName, 0, length, 0, IsComplete: false));
        await Hashing.AppendAsync(content, length, hash, count =>
        {
            done += count;
            progress?.Report(new TransferProgress(TransferPhase.Hashing, localName, done, length, 0, IsComplete: false));
        }, cancellationToken);
        progress?.Report(new TransferProgress(TransferPhase.Hashing, localName, done, length, 0, IsComplete: true));
        return hash.GetHashAndReset();
    }
}
