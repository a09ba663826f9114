using System.Security.Cryptography;
using FileTransfer.Client.Transport;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// One download, for every protocol: resumes after bytes already in the destination (asking for
/// the rest only while the file keeps their ETag), resumes a dropped connection from where it
/// stopped (bounded retries with backoff), hashes the whole file as it is written, on another
/// thread than the one that receives it (<see cref="BackgroundHash"/>), and compares the digest
/// with the SHA-256 the server announced. <c>path</c> is the local file the
/// destination becomes, for the result.
/// </summary>
internal sealed class Download(
    IFileTransport transport, FileTransferClientOptions settings, string name, Stream destination, DownloadOptions options, IProgress<TransferProgress>? progress, string? path = null)
{
    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
    private readonly Backoff _backoff = new(settings.MaxRetries, settings.RetryDelay);
    private BackgroundHash? _hashing;
    // Where the file starts in the destination, and how many of its bytes are there.
    private long _origin;
    private long _offset;
    private RemoteFileInfo? _file;
    // The bytes already in the destination when the download started that it kept (0 once it starts over).
    private long _startedAt;

    public async Task<DownloadResult> RunAsync(CancellationToken cancellationToken)
    {
        using var hash = _hash;
        var ifRange = await PrepareAsync(cancellationToken);
        await using var hashing = _hashing = new BackgroundHash(_hash);
        var restarted = DownloadRestartReason.None;
        while (true)
        {
            using var stall = new StallGuard(settings.StallTimeout, cancellationToken);
            DownloadResponse response;
            try
            {
                response = await transport.OpenDownloadAsync(name, _offset, ifRange, stall.Arm());
            }
            catch (FileTransferException e) when (e.Kind == FileTransferErrorKind.RangeNotSatisfiable && _offset > 0 && _file is null)
            {
                // The bytes already there are at least as long as the file now is: not a prefix of it.
                await StartOverAsync(cancellationToken);
                restarted = DownloadRestartReason.PartLongerThanFile;
                ifRange = null;
                continue;
            }
            catch (Exception e) when (IsLost(e, stall, cancellationToken))
            {
                if (_file is null)
                {
                    // Never reached the server: nothing to resume.
                    throw Lost(e, stall);
                }

                // A retry that could not reconnect yet.
                await RetryOrThrowAsync(Lost(e, stall), cancellationToken);
                continue;
            }

            using (response)
            {
                if (response.Offset != _offset)
                {
                    // The file changed since the bytes already there were written (RFC 9110 13.1.5): the whole file follows.
                    await StartOverAsync(cancellationToken);
                    restarted = DownloadRestartReason.FileChanged;
                }

                if (_file is null || _file.ETag != response.File.ETag)
                {
                    options.OnETag?.Invoke(response.File.ETag);
                }

                _file = response.File;
                // Later attempts ask for the rest of this version only.
                ifRange = _file.ETag;
                Report(_offset, complete: false);
                try
                {
                    await CopyAsync(response, stall);
                    break;
                }
                catch (Exception e) when (IsLost(e, stall, cancellationToken))
                {
                    await RetryOrThrowAsync(Lost(e, stall), cancellationToken);
                }
            }
        }

        await destination.FlushAsync(cancellationToken);
        var actual = await hashing.FinishAsync();
        if (_file.Size >= 0 && _offset != _file.Size)
        {
            throw new FileTransferException(FileTransferErrorKind.ConnectionLost, $"The download of '{name}' stopped after {_offset} of {_file.Size} bytes.");
        }

        if (_file.Sha256 is { } expected && !CryptographicOperations.FixedTimeEquals(expected, actual))
        {
            throw new FileTransferException(FileTransferErrorKind.DigestMismatch,
                $"Digest mismatch for '{name}': the server announced sha-256 {Hashing.Hex(expected)}, the bytes received hash to {Hashing.Hex(actual)}.");
        }

        Report(_offset, complete: true);
        return new DownloadResult
        {
            File = _file,
            Length = _offset,
            Sha256 = actual,
            Verified = _file.Sha256 is not null,
            // Starting over sets _startedAt to 0, so it is the resumed prefix only when that prefix was kept.
            ResumedAt = _startedAt,
            Restarted = restarted,
            ResumedWithoutETag = _startedAt > 0 && options.IfMatch is null,
            Retries = _backoff.Retries,
            Path = path,
        };
    }

    /// <summary>With <see cref="DownloadOptions.Resume"/>: hashes the bytes already there and returns the ETag to resume them with.</summary>
    private async Task<string?> PrepareAsync(CancellationToken cancellationToken)
    {
        if (!options.Resume)
        {
            _origin = destination.CanSeek ? destination.Position : 0;
            return null;
        }

        if (!destination.CanSeek || !destination.CanRead || !destination.CanWrite)
        {
            throw new ArgumentException("Resuming needs a destination that can seek, read and write.", nameof(destination));
        }

        var length = destination.Length;
        destination.Position = 0;
        await Hashing.AppendAsync(destination, length, _hash, _ => { }, cancellationToken);
        _offset = length;
        _startedAt = length;
        return length > 0 ? options.IfMatch : null;
    }

    private async Task CopyAsync(DownloadResponse response, StallGuard stall)
    {
        await using var chunks = response.Body.GetAsyncEnumerator(stall.Token);
        while (true)
        {
            stall.Arm();
            if (!await chunks.MoveNextAsync())
            {
                if (_file!.Size >= 0 && _offset < _file.Size)
                {
                    // The body ended without an error but short of the size announced: resume it like a drop.
                    throw new FileTransferException(FileTransferErrorKind.ConnectionLost, $"the response ended after {_offset} of {_file.Size} bytes");
                }

                return;
            }

            var chunk = chunks.Current;
            try
            {
                await destination.WriteAsync(chunk.Memory, stall.Token);
            }
            catch
            {
                chunk.Return();
                throw;
            }

            // The hashing thread takes the chunk (and returns it), so its bytes are not copied again.
            await _hashing!.AppendAsync(chunk, stall.Token);
            _offset += chunk.Length;
            _backoff.Progressed();
            Report(_offset, complete: false);
        }
    }

    private async Task StartOverAsync(CancellationToken cancellationToken)
    {
        if (_offset > 0)
        {
            if (!destination.CanSeek)
            {
                throw new FileTransferException(FileTransferErrorKind.PreconditionFailed,
                    $"'{name}' changed on the server during the download, and the destination cannot be rewound to start over.");
            }

            destination.SetLength(_origin);
        }

        if (destination.CanSeek)
        {
            destination.Position = _origin;
        }

        _offset = 0;
        _startedAt = 0;
        await _hashing!.ResetAsync();
    }

    private async Task RetryOrThrowAsync(FileTransferException lost, CancellationToken cancellationToken)
    {
        if (!await _backoff.WaitAsync(cancellationToken))
        {
            var of = _file is { Size: >= 0 } file ? $" of {file.Size}" : string.Empty;
            throw new FileTransferException(lost.Kind,
                $"The download of '{name}' stopped after {_offset}{of} bytes{(_backoff.Retries > 0 ? $" and {_backoff.Retries} retries" : string.Empty)}: {lost.Message}",
                lost.Status, lost.Detail, lost);
        }
    }

    private static bool IsLost(Exception e, StallGuard stall, CancellationToken cancellationToken) =>
        !cancellationToken.IsCancellationRequested
        && (e is FileTransferException { Kind: FileTransferErrorKind.ConnectionLost or FileTransferErrorKind.ServiceUnavailable }
            || (e is OperationCanceledException && stall.Stalled));

    private static FileTransferException Lost(Exception e, StallGuard stall) =>
        e as FileTransferException ?? new FileTransferException(FileTransferErrorKind.ConnectionLost, $"no data for {stall.Limit.TotalSeconds:0} s", innerException: e);

    private void Report(long done, bool complete)
    {
        if (progress is not null && _file is not null)
        {
            progress.Report(new TransferProgress(TransferPhase.Downloading, _file.Name, done, _file.Size >= 0 ? _file.Size : null, _startedAt, complete));
        }
    }
}
