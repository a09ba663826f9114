using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Benchmarks.NaiveGrpc;

/// <summary>Where the files are, how large each chunk is, and which of the two published services to map.</summary>
internal sealed record NaiveOptions(string RootPath, int ChunkSizeBytes, bool Optimized);

/// <summary>
/// DownloadFile written the naive way the published table measured: a new buffer for every call
/// and every chunk copied into a new <see cref="ByteString"/> (<c>ByteString.CopyFrom</c>), so the
/// server allocates the whole file again as garbage. Only DownloadFile is implemented; the other
/// RPCs answer UNIMPLEMENTED. Benchmarks only: loopback, no authentication.
/// </summary>
internal sealed class NaiveFileService(NaiveOptions options) : FileService.FileServiceBase
{
    public override async Task DownloadFile(DownloadFileRequest request, IServerStreamWriter<DownloadFileResponse> responseStream, ServerCallContext context)
    {
        var path = Resolve(options, request.FileName);
        await using var file = File.OpenRead(path);
        await responseStream.WriteAsync(new DownloadFileResponse
        {
            Metadata = new FileMetadata { FileName = request.FileName, ContentType = "application/octet-stream", Size = file.Length },
        }, context.CancellationToken);

        var buffer = new byte[options.ChunkSizeBytes];
        int read;
        while ((read = await file.ReadAsync(buffer, context.CancellationToken)) > 0)
        {
            await responseStream.WriteAsync(new DownloadFileResponse { Chunk = ByteString.CopyFrom(buffer, 0, read) }, context.CancellationToken);
        }
    }

    /// <summary>The file's path under the root, or NOT_FOUND.</summary>
    public static string Resolve(NaiveOptions options, string name)
    {
        var path = Path.GetFullPath(Path.Combine(options.RootPath, name));
        return path.StartsWith(options.RootPath + Path.DirectorySeparatorChar, StringComparison.Ordinal) && File.Exists(path)
            ? path
            : throw new RpcException(new Status(StatusCode.NotFound, "No such file."));
    }
}
