using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace FileTransfer.Core;

/// <summary>
/// The transfer instruments (System.Diagnostics.Metrics), one meter per host from
/// <see cref="IMeterFactory"/>. Tags: <c>protocol</c> (<see cref="TransferProtocols"/>), <c>direction</c>
/// (download, upload), <c>outcome</c> (see <see cref="TransferOutcome"/>). File names are never
/// tags: they would make a series per file. Transfers are started by the core where bytes move
/// (<see cref="TransferOrigin"/>), never guessed from a request's path or message type.
/// </summary>
/// <remarks>
/// The instruments are observable: a transfer adds to plain counts (<see cref="TransferSeries"/>)
/// and the listener reads them when it collects (a scrape of <c>/metrics</c>). A measurement handed to
/// a listener costs a look-up of its tags in the listener's table on every call; a small download
/// made four of them (started, its bytes, ended, completed), about 3 % of a 1 KiB GET's CPU
/// (docs/performance-notes.md). The series, their types, units and tags are the same as when each
/// was a counter: a count read at collection is what the sum of its measurements was.
/// </remarks>
public sealed class TransferMetrics
{
    public const string MeterName = "FileTransfer.Server";

    private readonly TransferSeriesTable _series = new();

    public TransferMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(MeterName);
        meter.CreateObservableCounter("filetransfer.bytes_sent", () => _series.Bytes(TransferDirection.Download), "By", "File bytes written to clients (downloads).");
        meter.CreateObservableCounter("filetransfer.bytes_received", () => _series.Bytes(TransferDirection.Upload), "By", "File bytes read from clients (uploads).");
        meter.CreateObservableUpDownCounter("filetransfer.transfers_active", _series.Active, "{transfer}", "Transfers in progress.");
        meter.CreateObservableCounter("filetransfer.transfers_completed", _series.Completed, "{transfer}", "Transfers finished, by outcome.");
    }

    /// <summary>
    /// Starts counting one transfer of <paramref name="name"/> for <paramref name="origin"/>, which
    /// completes it (<see cref="Transfer.Complete"/>) exactly once; null without an origin (nothing is counted).
    /// </summary>
    internal Transfer? Start(TransferOrigin? origin, string direction, string name)
    {
        if (origin is null)
        {
            return null;
        }

        var series = _series.Of(origin.Protocol, direction);
        series.Started();
        var transfer = new Transfer(series) { Name = name };
        origin.Started(transfer);
        return transfer;
    }

    /// <summary>One transfer: its byte count so far and how long it has been running.</summary>
    public sealed class Transfer
    {
        private readonly TransferSeries _series;
        private readonly long _startedAt = Stopwatch.GetTimestamp();
        private long _bytes;

        internal Transfer(TransferSeries series) => _series = series;

        public string Protocol => _series.Protocol;

        public string Direction => _series.Direction;

        /// <summary>The file's name (for the log line, never a tag); empty until known (an append to a session not found).</summary>
        public string Name { get; internal set; } = "";

        public long Bytes => Interlocked.Read(ref _bytes);

        public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_startedAt);

        /// <summary>Counts bytes as they move, so that a long transfer shows up before it ends.</summary>
        public void Add(int bytes)
        {
            Interlocked.Add(ref _bytes, bytes);
            _series.Moved(bytes);
        }

        /// <summary>Ends the transfer with <paramref name="outcome"/>; its origin calls it once, when the protocol has answered.</summary>
        public void Complete(string outcome) => _series.Ended(outcome);
    }
}

public static class TransferDirection
{
    public const string Download = "download";
    public const string Upload = "upload";
}
