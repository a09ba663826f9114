using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    /// <summary>
    /// Server streaming: the events the caller may read (<see cref="EventQuery"/>), the retained ones
    /// after <c>after</c> first, then live, until the client cancels or the server stops.
    /// </summary>
    [Operation(FileOperation.Read)]
    public override async Task WatchEvents(WatchEventsRequest request, IServerStreamWriter<Protos.V1.FileEvent> responseStream, ServerCallContext context)
    {
        using var call = CancellationTokenSource.CreateLinkedTokenSource(context.CancellationToken, lifetime.ApplicationStopping);
        var query = new EventQuery(request.Prefix, request.After, request.Types_);
        var watched = query.Watch(events, Callers.Of(context.GetHttpContext()), call.Token);

        // The headers go out now: a client knows it is watching before the first event.
        await context.WriteResponseHeadersAsync([]);
        try
        {
            await foreach (var e in watched)
            {
                await responseStream.WriteAsync(ToMessage(e), call.Token);
            }
        }
        catch (OperationCanceledException) when (lifetime.ApplicationStopping.IsCancellationRequested && !context.CancellationToken.IsCancellationRequested)
        {
            // The server stops: the stream ends with OK, and the client resumes elsewhere with its last id.
        }
    }

    private static Protos.V1.FileEvent ToMessage(Core.FileEvent e) => new()
    {
        Id = e.Id,
        Type = e.Type,
        Time = Timestamp.FromDateTimeOffset(e.Time),
        FileName = e.Name,
        Size = e.Size,
        Etag = e.ETag ?? "",
        Sha256 = e.Sha256 is { } sha256 ? ByteString.CopyFrom(sha256) : ByteString.Empty,
        Protocol = e.Protocol ?? "",
        Caller = e.Caller,
        Replica = e.Replica,
        UploadId = e.UploadId ?? "",
    };
}
