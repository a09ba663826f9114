using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Benchmarks.NaiveGrpc;

/// <summary>
/// DownloadFile written the "optimized" way the published table measured: one buffer rented from
/// <see cref="ArrayPool{T}"/> per call, each chunk wrapped over it with
/// <c>UnsafeByteOperations.UnsafeWrap</c> instead of copied (the write has serialized the message
/// by the time its task completes, so the buffer is free to refill). Everything else is as in
/// <see cref="NaiveFileService"/>: no authentication, the other RPCs answer UNIMPLEMENTED.
/// </summary>
internal sealed class OptimizedFileService(NaiveOptions options) : FileService.FileServiceBase
{
    public override async Task DownloadFile(DownloadFileRequest request, IServerStreamWriter<DownloadFileResponse> responseStream, ServerCallContext context)
    {
        var path = NaiveFileService.Resolve(options, request.FileName);
        await using var file = File.OpenRead(path);
        await responseStream.WriteAsync(new DownloadFileResponse
        {
            Metadata = new FileMetadata { FileName = request.FileName, ContentType = "application/octet-stream", Size = file.Length },
        }, context.CancellationToken);

        var buffer = ArrayPool<byte>.Shared.Rent(options.ChunkSizeBytes);
        try
        {
            var message = new DownloadFileResponse();
            int read;
            while ((read = await file.ReadAsync(buffer.AsMemory(0, options.ChunkSizeBytes), context.CancellationToken)) > 0)
            {
                message.Chunk = UnsafeByteOperations.UnsafeWrap(buffer.AsMemory(0, read));
                await responseStream.WriteAsync(message, context.CancellationToken);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
