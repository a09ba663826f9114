using System.Runtime.CompilerServices;
using FileTransfer.Protos.V1;
using Grpc.Core;

namespace FileTransfer.Client.Transport.Grpc;

internal sealed partial class GrpcTransport
{
    /// <summary>The server-streaming <c>WatchEvents</c>.</summary>
    public async IAsyncEnumerable<FileTransferEvent> WatchAsync(string? prefix, string? after, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var call = client.WatchEvents(new WatchEventsRequest { Prefix = prefix ?? string.Empty, After = after ?? string.Empty }, Headers(), cancellationToken: cancellationToken);
        while (true)
        {
            try
            {
                if (!await call.ResponseStream.MoveNext(cancellationToken))
                {
                    yield break;
                }
            }
            catch (RpcException e)
            {
                throw await FailAsync(e, prefix ?? string.Empty, cancellationToken);
            }

            var message = call.ResponseStream.Current;
            yield return new FileTransferEvent(
                message.Id,
                message.Type,
                message.Time.ToDateTimeOffset(),
                message.FileName,
                message.Size,
                message.Etag.Length == 0 ? null : message.Etag,
                message.Sha256.IsEmpty ? null : Convert.ToHexStringLower(message.Sha256.Span),
                message.Protocol.Length == 0 ? null : message.Protocol,
                message.Caller,
                message.Replica,
                message.UploadId.Length == 0 ? null : message.UploadId);
        }
    }
}
