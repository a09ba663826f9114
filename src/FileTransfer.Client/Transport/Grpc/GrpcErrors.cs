using System.Globalization;
using System.Text;
using Google.Rpc;
using Grpc.Core;

namespace FileTransfer.Client.Transport.Grpc;

/// <summary>
/// A failed call to a <see cref="FileTransferException"/>: by the server's <c>ErrorInfo</c> reason
/// through <see cref="ServerReasons"/>, the table REST uses too, so that both protocols fail the same
/// way; by the status code (grpc/doc/statuscodes.md) only when the call has no reason this client
/// knows: a connection that failed, a server that is not ours, a reason newer than this client.
/// </summary>
internal static class GrpcErrors
{
    /// <summary>The trailer a rate-limited call carries: how long to wait, in milliseconds (gRPC A6 retry push-back).</summary>
    public const string PushbackTrailer = "grpc-retry-pushback-ms";

    /// <param name="e">The call's failure.</param>
    /// <param name="name">The file, for messages.</param>
    /// <param name="address">The server, for messages.</param>
    /// <param name="portRefusesHttp2">True when the port, asked after the call failed unanswered (<see cref="FailedUnanswered"/>), did not answer HTTP/2 (<see cref="Http2Probe"/>).</param>
    public static FileTransferException Map(RpcException e, string name, Uri address, bool portRefusesHttp2 = false)
    {
        var status = Name(e.StatusCode);
        var reason = ReasonOf(e);
        var detail = string.IsNullOrEmpty(e.Status.Detail) ? null : e.Status.Detail;
        var text = detail ?? "no details";
        var (kind, message) = ServerReasons.KindOf(reason) is { } known
            ? (known, ServerReasons.Describe(known, name, status, text))
            : Unexplained(e, reason, name, status, text, address.GetLeftPart(UriPartial.Authority), portRefusesHttp2);
        return new FileTransferException(kind, message, status, detail, e) { Reason = reason, RetryAfter = RetryAfter(e) };
    }

    // A status without a reason this client knows: a connection that failed (the transport's own
    // statuses), a server that is not ours, or a reason newer than this client.
    private static (FileTransferErrorKind Kind, string Message) Unexplained(
        RpcException e, string? reason, string name, string status, string text, string authority, bool portRefusesHttp2)
    {
        (FileTransferErrorKind, string) Described(FileTransferErrorKind kind) => (kind, ServerReasons.Describe(kind, name, status, text));

        return e.StatusCode switch
        {
            StatusCode.InvalidArgument => Described(FileTransferErrorKind.InvalidRequest),
            StatusCode.Unauthenticated => Described(FileTransferErrorKind.Unauthenticated),
            StatusCode.PermissionDenied => Described(FileTransferErrorKind.PermissionDenied),
            StatusCode.NotFound => Described(FileTransferErrorKind.NotFound),
            StatusCode.AlreadyExists => Described(FileTransferErrorKind.AlreadyExists),
            StatusCode.FailedPrecondition => Described(FileTransferErrorKind.PreconditionFailed),
            StatusCode.OutOfRange => Described(FileTransferErrorKind.RangeNotSatisfiable),
            StatusCode.ResourceExhausted when reason is null && RetryAfter(e) is not null => Described(FileTransferErrorKind.RateLimited),
            StatusCode.ResourceExhausted => Described(FileTransferErrorKind.TooLarge),
            StatusCode.DataLoss => Described(FileTransferErrorKind.DigestMismatch),
            StatusCode.Unimplemented => (FileTransferErrorKind.ProtocolUnavailable,
                $"The server at {authority} does not serve the gRPC FileService ({status}): {text}"),
            _ when SaysNoHttp2(e) => (FileTransferErrorKind.ProtocolUnavailable,
                $"The server at {authority} does not speak gRPC on this port (no HTTP/2): {Inner(e)}. Its cleartext gRPC port is the HTTP/2 one (5001 by default)."),
            _ when portRefusesHttp2 => (FileTransferErrorKind.ProtocolUnavailable,
                $"The server at {authority} does not speak gRPC on this port: it does not answer HTTP/2 ({Inner(e)}). Its cleartext gRPC port is the HTTP/2 one (5001 by default)."),
            StatusCode.Unavailable when Refused(e) =>
                (FileTransferErrorKind.ConnectionLost, $"Cannot reach {authority}: {Inner(e)}"),
            StatusCode.Unavailable or StatusCode.Cancelled or StatusCode.DeadlineExceeded or StatusCode.Aborted =>
                (FileTransferErrorKind.ConnectionLost, $"The connection to {authority} was lost ({status}): {Inner(e)}"),
            StatusCode.Internal or StatusCode.Unknown when e.Status.DebugException is IOException or HttpRequestException or HttpIOException =>
                (FileTransferErrorKind.ConnectionLost, $"The connection to {authority} was lost ({status}): {Inner(e)}"),
            _ => (FileTransferErrorKind.ServerError, $"The server answered {status}: {text}"),
        };
    }

    /// <summary><c>NOT_FOUND</c> for <see cref="StatusCode.NotFound"/>: the names the gRPC documentation uses.</summary>
    public static string Name(StatusCode code)
    {
        var text = code.ToString();
        var name = new StringBuilder(text.Length + 4);
        for (var i = 0; i < text.Length; i++)
        {
            if (i > 0 && char.IsUpper(text[i]))
            {
                name.Append('_');
            }

            name.Append(char.ToUpperInvariant(text[i]));
        }

        return name.ToString();
    }

    /// <summary>
    /// The server's stable reason for its refusal: the <c>google.rpc.ErrorInfo</c> in
    /// <c>grpc-status-details-bin</c> (e.g. <c>FILE_TOO_LARGE</c> or <c>STORAGE_FULL</c>, which share RESOURCE_EXHAUSTED).
    /// </summary>
    private static string? ReasonOf(RpcException e) => Details(e)?.GetDetail<ErrorInfo>()?.Reason;

    // RetryInfo in the details, else the push-back trailer.
    private static TimeSpan? RetryAfter(RpcException e) =>
        Details(e)?.GetDetail<RetryInfo>()?.RetryDelay?.ToTimeSpan()
        ?? (e.Trailers.GetValue(PushbackTrailer) is { } value && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var ms)
            ? TimeSpan.FromMilliseconds(ms)
            : null);

    private static Google.Rpc.Status? Details(RpcException e)
    {
        try
        {
            return e.GetRpcStatus();
        }
        catch (Google.Protobuf.InvalidProtocolBufferException)
        {
            // Details that do not parse are no details.
            return null;
        }
    }

    /// <summary>
    /// True when the call failed before the server answered it (SocketsHttpHandler failed the
    /// request, not its response) for a reason that does not say whether the port speaks HTTP/2:
    /// not a refused connection, not one of the answers below. Over <c>http://</c> a port without
    /// HTTP/2 and a connection that broke fail alike then, with errors that depend on timing;
    /// <see cref="Http2Probe"/> asks the port.
    /// </summary>
    public static bool FailedUnanswered(RpcException e) =>
        e.Status.DebugException is HttpRequestException && !Refused(e) && !SaysNoHttp2(e);

    // Answers that do settle it: a port that speaks only HTTP/1.1 refuses the HTTP/2 connection with
    // HTTP_1_1_REQUIRED (RFC 9113 7, error code 0xd; Kestrel sends it in a GOAWAY), and over TLS,
    // ALPN (RFC 7301) settles on HTTP/1.1. Over TLS nothing else means "no HTTP/2": once ALPN chose
    // h2, a connection that fails is a lost connection.
    private static bool SaysNoHttp2(RpcException e) =>
        e.Status.DebugException is { } inner
        && (inner is HttpRequestException { HttpRequestError: HttpRequestError.VersionNegotiationError }
            || Chain(inner).Any(x => x is HttpProtocolException { ErrorCode: Http11Required }));

    private static IEnumerable<Exception> Chain(Exception e)
    {
        for (var x = e; x is not null; x = x.InnerException)
        {
            yield return x;
        }
    }

    private const long Http11Required = 0xd;

    private static bool Refused(RpcException e) =>
        e.Status.DebugException is System.Net.Sockets.SocketException
            or HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError or HttpRequestError.SecureConnectionError };

    private static string Inner(RpcException e) =>
        e.Status.DebugException is { } inner ? HttpHandlers.Innermost(inner).Message : e.Status.Detail;
}
