using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Grpc.Core;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The transfers one HTTP request (a REST, tus or draft request, or a gRPC call) asked the core to
/// make, ended together once the request's answer is complete: each with its outcome, from the
/// core's reason where the request failed for one (<see cref="TransferOutcome.Of"/>) and else from the
/// protocol's status, one metrics update and one log line. The adapter names the protocol; nothing
/// here looks at a path or a message type.
/// </summary>
internal sealed class RequestTransfers(HttpContext context, TransferProtocol protocol, ILogger logger) : TransferOrigin
{
    private TransferMetrics.Transfer? _first;
    private List<TransferMetrics.Transfer>? _more;

    public override string Protocol { get; } = protocol.Code();

    public override void Started(TransferMetrics.Transfer transfer)
    {
        if (_first is null)
        {
            _first = transfer;
            context.Response.OnCompleted(static state => ((RequestTransfers)state).Complete(), this);
            return;
        }

        (_more ??= []).Add(transfer);
    }

    private Task Complete()
    {
        End(_first!);
        foreach (var transfer in _more ?? [])
        {
            End(transfer);
        }

        return Task.CompletedTask;
    }

    /// <summary>
    /// Notes that the client of <paramref name="context"/> went away while its request ran. Asked at the
    /// end, the request's abort token cannot tell: a client that closes its connection as soon as it
    /// has the whole answer (curl does) trips it too.
    /// </summary>
    public static void ClientLeft(HttpContext context) => context.Features.Set(Left.Instance);

    private void End(TransferMetrics.Transfer transfer)
    {
        var reason = HttpErrors.ReasonOf(context);
        string outcome, status;
        if (protocol == TransferProtocol.Grpc)
        {
            // A call's own status says whether it ended well; an abort is asked only of one that did not.
            var code = GrpcCallObserver.StatusOf(context);
            outcome = GrpcOutcomeOf(code, reason, context.RequestAborted.IsCancellationRequested);
            status = code.ToString();
        }
        else
        {
            var aborted = context.Features.Get<Left>() is not null || CutShort(transfer);
            outcome = aborted ? TransferOutcome.Aborted : HttpOutcomeOf(context.Response.StatusCode, reason);
            status = context.Response.StatusCode.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        // The line first: whoever sees the transfer completed in the metrics finds its line written.
        TransferLog.Completed(logger, transfer, context.Request.Protocol, outcome, status, reason);
        transfer.Complete(outcome);
    }

    // A client that leaves mid-body may not have tripped RequestAborted yet when the send loop
    // notices the closed connection; fewer bytes than Content-Length says the same.
    private bool CutShort(TransferMetrics.Transfer transfer) =>
        transfer.Direction == TransferDirection.Download
        && context.Response.StatusCode is StatusCodes.Status200OK or StatusCodes.Status206PartialContent
        && context.Response.ContentLength is { } expected
        && transfer.Bytes < expected;

    private sealed class Left
    {
        public static readonly Left Instance = new();
    }

    /// <summary>The core's reason decides where there is one; otherwise the status code (304, a route's 404, a 5xx).</summary>
    internal static string HttpOutcomeOf(int status, ErrorReason? reason) => reason is { } known
        ? TransferOutcome.Of(known)
        : status switch
        {
            StatusCodes.Status304NotModified => TransferOutcome.NotModified,
            >= 500 => TransferOutcome.Failed,
            >= 400 => TransferOutcome.Rejected,
            _ => TransferOutcome.Success,
        };

    /// <summary>The outcome of a call: the core's reason decides where there is one, as for REST; else the status.</summary>
    internal static string GrpcOutcomeOf(StatusCode status, ErrorReason? reason, bool callCancelled) => status switch
    {
        StatusCode.OK => TransferOutcome.Success,
        _ when callCancelled => TransferOutcome.Aborted,
        _ when reason is { } known => TransferOutcome.Of(known),
        StatusCode.Cancelled or StatusCode.DeadlineExceeded => TransferOutcome.Aborted,
        StatusCode.InvalidArgument or StatusCode.NotFound or StatusCode.AlreadyExists or StatusCode.PermissionDenied
            or StatusCode.Unauthenticated or StatusCode.FailedPrecondition or StatusCode.OutOfRange
            or StatusCode.ResourceExhausted or StatusCode.DataLoss => TransferOutcome.Rejected,
        _ => TransferOutcome.Failed,
    };
}
