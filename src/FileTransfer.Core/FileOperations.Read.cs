using System.Buffers;
using System.Security.Cryptography;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Core;

public sealed partial class FileOperations
{
    private const int HashBufferSize = 1024 * 1024;

    /// <summary>
    /// Opens the current version of <paramref name="name"/> for a download by <paramref name="caller"/> and checks
    /// <paramref name="preconditions"/> against that very version. Everything the response says about
    /// the file, and every byte it sends, comes from the result.
    /// </summary>
    public ValueTask<OpenedFile> OpenAsync(Caller caller, string name, Preconditions preconditions, CancellationToken cancellationToken) =>
        OpenAsync(caller, name, preconditions, download: null, cancellationToken);

    /// <summary>
    /// <see cref="OpenAsync(Caller, string, Preconditions, CancellationToken)"/> for a download from
    /// <paramref name="download"/>: a transfer from the start, so that a refusal (no such file, a bad
    /// name, no right, a failed precondition) counts as one too; its bytes are counted as they are read.
    /// </summary>
    public async ValueTask<OpenedFile> OpenAsync(Caller caller, string name, Preconditions preconditions, TransferOrigin? download, CancellationToken cancellationToken)
    {
        var transfer = Transfers.Start(download, TransferDirection.Download, name);
        FileNames.Validate(name);
        AccessPolicy.Demand(caller, FileOperation.Read, name);
        var opened = await backend.OpenAsync(name, cancellationToken) ?? throw Failures.NotFound(name);
        try
        {
            preconditions.Check(name, opened.Object);
            return new OpenedFile(opened, Describe(opened.Object)) { Transfer = transfer };
        }
        catch
        {
            await opened.DisposeAsync();
            throw;
        }
    }

    /// <summary>
    /// The SHA-256 of <paramref name="file"/>'s bytes: the one the backend keeps for that version, or
    /// computed now by reading that same open version (never the name again, which may hold another
    /// version by now) and handed to the backend to keep.
    /// </summary>
    public async ValueTask<byte[]> DigestAsync(OpenedFile file, CancellationToken cancellationToken)
    {
        if (file.Sha256 is { } known)
        {
            return known;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(HashBufferSize);
        try
        {
            using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            // The version's own stream: hashing is not part of the download.
            await using (var bytes = await file.Opened.OpenReadAsync(0, file.Version.Size, cancellationToken))
            {
                int read;
                while ((read = await bytes.ReadAsync(buffer.AsMemory(0, HashBufferSize), cancellationToken)) > 0)
                {
                    hash.AppendData(buffer, 0, read);
                }
            }

            var sha256 = hash.GetHashAndReset();
            LogDigestComputed(logger, file.Version.Name, file.Version.Size);
            await backend.SaveDigestAsync(file.Opened.Object, sha256, cancellationToken);
            return file.Sha256 = sha256;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>The current version of <paramref name="name"/> with its SHA-256, both from one open.</summary>
    public async ValueTask<(FileVersion Version, byte[] Sha256)> DescribeAsync(Caller caller, string name, CancellationToken cancellationToken)
    {
        await using var file = await OpenAsync(caller, name, Preconditions.None, cancellationToken);
        return (file.Version, await DigestAsync(file, cancellationToken));
    }

    [LoggerMessage(EventId = 20, Level = LogLevel.Information, Message = "Computed SHA-256 of {Name} ({Size} bytes) stored outside the API")]
    private static partial void LogDigestComputed(ILogger logger, string name, long size);
}
