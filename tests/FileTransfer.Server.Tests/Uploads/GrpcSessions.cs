using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>WriteUpload calls as a client makes them: the first message names the upload and the offset, then chunks.</summary>
internal static class GrpcSessions
{
    /// <summary>Sends <paramref name="source"/>[from..to] in <paramref name="chunk"/>-byte messages, the last with <paramref name="finish"/>.</summary>
    public static async Task<UploadStatus> WriteAsync(FileService.FileServiceClient client, string uploadId, byte[] source, int from, int to, bool finish, int chunk = 64 * 1024)
    {
        using var call = client.WriteUpload(cancellationToken: TestTimeout.Token);
        try
        {
            await call.RequestStream.WriteAsync(new WriteUploadRequest { UploadId = uploadId, WriteOffset = from, Finish = finish && from == to });
            for (var offset = from; offset < to; offset += chunk)
            {
                var end = Math.Min(to, offset + chunk);
                await call.RequestStream.WriteAsync(new WriteUploadRequest { Chunk = ByteString.CopyFrom(source, offset, end - offset), Finish = finish && end == to });
            }

            await call.RequestStream.CompleteAsync();
        }
        catch (Exception) when (!TestTimeout.Token.IsCancellationRequested)
        {
            // The server may end the call (a refusal) while chunks are still going out; the write
            // then fails with whatever the transport saw (often Cancelled). The call's own status,
            // awaited below, is the server's answer.
        }

        return await call;
    }
}
