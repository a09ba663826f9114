using System.Security.Cryptography;
using FileTransfer.Client.Transport;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// An upload of a local file that survives interruptions: a session on the server (the same for
/// REST and gRPC), remembered locally until the file is stored, continued from the offset the server
/// holds durably. The whole file's SHA-256 goes with the session's creation, so the server verifies
/// every byte, across however many runs and protocols, before it commits.
/// </summary>
internal static class ResumableUpload
{
    public static async Task<UploadResult> RunAsync(
        IFileTransport transport, FileTransferClientOptions settings, string name, string localPath, FileStream content, UploadOptions options, ResumeState states,
        IProgress<TransferProgress>? progress, CancellationToken cancellationToken)
    {
        var length = content.Length;
        var digest = options.Sha256 ?? await Upload.HashAsync(content, length, Path.GetFileName(localPath), progress, cancellationToken);
        var key = ResumeState.KeyOf(settings.EffectiveAddress, name, localPath);
        var session = await ContinueAsync(transport, states, key, cancellationToken);
        if (session is null)
        {
            session = await transport.StartUploadSessionAsync(new UploadRequest(name, length, digest, options.Overwrite, settings.UploadChunkSize), cancellationToken);
            states.Remember(key, session.Id);
        }

        var resumedAt = session.Offset;
        var sent = resumedAt;
        progress?.Report(new TransferProgress(TransferPhase.Uploading, name, sent, length, resumedAt, IsComplete: false));
        if (!session.Complete)
        {
            content.Position = resumedAt;
            session = await transport.FinishUploadSessionAsync(session.Id, resumedAt, length, content, settings.UploadChunkSize, count =>
            {
                sent += count;
                progress?.Report(new TransferProgress(TransferPhase.Uploading, name, sent, length, resumedAt, IsComplete: false));
            }, cancellationToken);
        }

        if (!session.Complete)
        {
            throw new FileTransferException(FileTransferErrorKind.ServerError, $"The server holds {session.Offset} of {length} bytes after the last of them was sent.");
        }

        states.Forget(key);
        var file = await transport.GetInfoAsync(name, cancellationToken);
        if (file.Sha256 is { } stored && !CryptographicOperations.FixedTimeEquals(stored, digest))
        {
            throw new FileTransferException(FileTransferErrorKind.DigestMismatch,
                $"The server holds '{name}' with sha-256 {Hashing.Hex(stored)}, but the local file hashes to {Hashing.Hex(digest)}: it was replaced meanwhile.");
        }

        progress?.Report(new TransferProgress(TransferPhase.Uploading, name, length, length, resumedAt, IsComplete: true));
        return new UploadResult { File = file, Sha256 = digest, VerifiedBeforeCommit = true, ResumedAt = resumedAt };
    }

    // The remembered session, or null when there is none or the server no longer has it for us
    // (expired, cancelled, another key's): then the upload starts again.
    private static async Task<UploadSessionState?> ContinueAsync(IFileTransport transport, ResumeState states, string key, CancellationToken cancellationToken)
    {
        if (states.Find(key) is not { } uploadId)
        {
            return null;
        }

        try
        {
            return await transport.GetUploadSessionAsync(uploadId, cancellationToken);
        }
        catch (FileTransferException e) when (e.Kind is not (FileTransferErrorKind.ConnectionLost or FileTransferErrorKind.Unauthenticated or FileTransferErrorKind.RateLimited
            or FileTransferErrorKind.ServiceUnavailable))
        {
            states.Forget(key);
            return null;
        }
    }
}
