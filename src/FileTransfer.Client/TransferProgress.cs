namespace FileTransfer.Client;

/// <summary>What a transfer is doing.</summary>
public enum TransferPhase
{
    /// <summary>Reading a local file once to compute the SHA-256 that goes with an upload.</summary>
    Hashing,

    /// <summary>Receiving a file.</summary>
    Downloading,

    /// <summary>Sending a file.</summary>
    Uploading,
}

/// <summary>
/// One progress report. Reports arrive on the transferring thread after every chunk, so an
/// <see cref="IProgress{T}"/> given to <see cref="FileTransferClient"/> should be cheap and
/// synchronous (not <see cref="Progress{T}"/>, which posts each report to another thread).
/// </summary>
/// <param name="Phase">Hashing, downloading or uploading.</param>
/// <param name="Name">The file: the local name while hashing, else the name on the server.</param>
/// <param name="BytesDone">Bytes of the file done so far, including a resumed prefix.</param>
/// <param name="TotalBytes">Size of the whole file, when known.</param>
/// <param name="StartedAt">
/// Bytes that were already there when this phase started (a resumed prefix): the rate is
/// <c>(BytesDone - StartedAt) / elapsed</c>. A download that starts over reports a new phase with 0.
/// </param>
/// <param name="IsComplete">True on the last report of the phase.</param>
public readonly record struct TransferProgress(TransferPhase Phase, string Name, long BytesDone, long? TotalBytes, long StartedAt, bool IsComplete);
