namespace FileTransfer.Core;

/// <summary>
/// Where a transfer comes from, as the protocol adapter that asks the core to move bytes supplies it.
/// The core starts a transfer where bytes begin to move (a version opened for a download, an upload,
/// an append to an upload session), counts the bytes as it reads or receives them, and hands the
/// transfer to its origin. The origin completes it once its protocol has answered: only the adapter
/// knows the answer's status (an HTTP status code, a gRPC status), so it decides the outcome from
/// the one table (<see cref="TransferOutcome.Of"/>) and writes the per-transfer log line.
/// </summary>
public abstract class TransferOrigin
{
    /// <summary>The <c>protocol</c> tag: the wire spelling of a <see cref="TransferProtocol"/> (<see cref="TransferProtocols.Code"/>).</summary>
    public abstract string Protocol { get; }

    /// <summary>Called once for each transfer the core starts for this origin; the origin completes each exactly once.</summary>
    public abstract void Started(TransferMetrics.Transfer transfer);
}
