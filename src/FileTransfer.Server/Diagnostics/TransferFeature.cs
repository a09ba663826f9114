using FileTransfer.Core;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The transfer a REST request is counted as, set by <see cref="RestTransferObserver"/> for the
/// code that moves a download's bytes to report them as they are flushed.
/// </summary>
internal sealed record TransferFeature(TransferMetrics.Transfer Transfer)
{
    /// <summary>Counts <paramref name="bytes"/> for the request's transfer, if it is observed.</summary>
    public static void Add(HttpContext context, int bytes) => context.Features.Get<TransferFeature>()?.Transfer.Add(bytes);
}
