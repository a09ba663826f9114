using System.Diagnostics;
using System.Diagnostics.Metrics;
using FileTransfer.Core;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// Requests refused at the door (no or a refused credential, a missing scope, a rate or
/// concurrency limit), counted by reason and protocol: <c>filetransfer.requests_refused</c>. They
/// cost no log line each (a flood of 429s would otherwise be a flood of log), so this counter is
/// where an operator sees them.
/// </summary>
internal sealed class RefusedRequests(IMeterFactory meters)
{
    private readonly Counter<long> _refused = meters.Create(TransferMetrics.MeterName)
        .CreateCounter<long>("filetransfer.requests_refused", "{request}", "Requests refused by authentication, authorization or the rate limiter, by reason.");

    public void Count(ErrorReason reason, string protocol) =>
        _refused.Add(1, new TagList { { "reason", reason.Code() }, { "protocol", protocol } });
}
