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
public sealed class TransferMetrics
{
    public const string MeterName = "FileTransfer.Server";

    private readonly Counter<long> _bytesSent;
    private readonly Counter<long> _bytesReceived;
    private readonly UpDownCounter<long> _active;
    private readonly Counter<long> _completed;

    public TransferMetrics(IMeterFactory meterFactory)
    {
        var meter = meterFactory.Create(MeterName);
        _bytesSent = meter.CreateCounter<long>("filetransfer.bytes_sent", "By", "File bytes written to clients (downloads).");
        _bytesReceived = meter.CreateCounter<long>("filetransfer.bytes_received", "By", "File bytes read from clients (uploads).");
        _active = meter.CreateUpDownCounter<long>("filetransfer.transfers_active", "{transfer}", "Transfers in progress.");
        _completed = meter.CreateCounter<long>("filetransfer.transfers_completed", "{transfer}", "Transfers finished, by outcome.");
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

        var protocol = origin.Protocol;
        var tags = new TagList { { "protocol", protocol }, { "direction", direction } };
        _active.Add(1, tags);
        var transfer = new Transfer(this, protocol, direction, tags) { Name = name };
        origin.Started(transfer);
        return transfer;
    }

    /// <summary>One transfer: its byte count so far and how long it has been running.</summary>
    public sealed class Transfer(TransferMetrics metrics, string protocol, string direction, TagList tags)
    {
        private readonly long _startedAt = Stopwatch.GetTimestamp();
        private readonly KeyValuePair<string, object?> _protocolTag = new("protocol", protocol);
        private long _bytes;

        public string Protocol => protocol;

        public string Direction => direction;

        /// <summary>The file's name (for the log line, never a tag); empty until known (an append to a session not found).</summary>
        public string Name { get; internal set; } = "";

        public long Bytes => Interlocked.Read(ref _bytes);

        public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_startedAt);

        /// <summary>Counts bytes as they move, so that a long transfer shows up before it ends.</summary>
        public void Add(int bytes)
        {
            Interlocked.Add(ref _bytes, bytes);
            var counter = direction == TransferDirection.Download ? metrics._bytesSent : metrics._bytesReceived;
            counter.Add(bytes, _protocolTag);
        }

        /// <summary>Ends the transfer with <paramref name="outcome"/>; its origin calls it once, when the protocol has answered.</summary>
        public void Complete(string outcome)
        {
            metrics._active.Add(-1, tags);
            var completed = tags;
            completed.Add("outcome", outcome);
            metrics._completed.Add(1, completed);
        }
    }
}

public static class TransferDirection
{
    public const string Download = "download";
    public const string Upload = "upload";
}
