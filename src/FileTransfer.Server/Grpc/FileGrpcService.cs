using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Security;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// The gRPC FileService: a thin adapter that translates the contract's messages to the same core
/// operations the REST controllers call (<see cref="FileOperations"/>). The core's refusals become
/// status codes in one place, <see cref="CoreErrorInterceptor"/>. Each RPC declares its
/// <see cref="FileOperation"/>, and the scope it needs follows from the core's one table, as for REST.
/// Bound by <see cref="FileServiceBinding"/>.
/// </summary>
[BindServiceMethod(typeof(FileServiceBinding), nameof(FileServiceBinding.BindService))]
internal sealed partial class FileGrpcService(
    FileOperations files,
    UploadSessions sessions,
    FileEvents events,
    IHostApplicationLifetime lifetime,
    Quotas quotas,
    IOptions<GrpcTransferOptions> options,
    IOptions<KestrelServerOptions> kestrel,
    TransferOrigins transfers,
    SendBudget budget,
    ILogger<FileGrpcService> logger) : FileService.FileServiceBase
{
    [Operation(FileOperation.Read)]
    public override async Task DownloadFile(DownloadFileRequest request, IServerStreamWriter<DownloadFileResponse> responseStream, ServerCallContext context)
    {
        var cancellationToken = context.CancellationToken;
        if (request.Offset < 0 || request.Limit < 0)
        {
            throw Failures.InvalidRange("offset and limit must not be negative.");
        }

        // Opened once: the metadata, its digest and every chunk come from this version, whatever replaces the name meanwhile.
        await using var file = await files.OpenAsync(Callers.Of(context.GetHttpContext()), request.FileName, Preconditions.IfMatches(request.IfMatch), Origin(context), cancellationToken);
        var range = ReadRange.FromOffset(request.Offset, request.Limit, file.Version.Size);
        var sha256 = await files.DigestAsync(file, cancellationToken);
        await responseStream.WriteAsync(new DownloadFileResponse { Metadata = ProtoFiles.Metadata(file.Version, sha256) }, cancellationToken);
        await using var bytes = await file.OpenReadAsync(range, cancellationToken);
        await FileChunks.SendAsync(bytes, range.Length, options.Value.ChunkSizeBytes, responseStream, budget, cancellationToken);
    }

    /// <summary>The call as the origin of the transfers it asks the core for.</summary>
    private TransferOrigin Origin(ServerCallContext context) => transfers.For(context.GetHttpContext(), TransferProtocol.Grpc);

    [Operation(FileOperation.Read)]
    public override async Task<FileMetadata> GetFileInfo(GetFileInfoRequest request, ServerCallContext context)
    {
        var (version, sha256) = await files.DescribeAsync(Callers.Of(context.GetHttpContext()), request.FileName, context.CancellationToken);
        return ProtoFiles.Metadata(version, sha256);
    }

    [Operation(FileOperation.List)]
    public override async Task<ListFilesResponse> ListFiles(ListFilesRequest request, ServerCallContext context)
    {
        var page = await files.ListAsync(Callers.Of(context.GetHttpContext()), new ListQuery(request.Prefix, request.PageSize, request.PageToken), context.CancellationToken);
        // Listings carry no digest: hashing every listed file would make a listing cost a full read of the tree.
        var response = new ListFilesResponse { NextPageToken = page.NextPageToken ?? "" };
        response.Files.AddRange(page.Files.Select(file => ProtoFiles.Metadata(file, sha256: null)));
        return response;
    }

    [Operation(FileOperation.Delete)]
    public override async Task<DeleteFileResponse> DeleteFile(DeleteFileRequest request, ServerCallContext context)
    {
        await files.DeleteAsync(Callers.Of(context.GetHttpContext()), TransferProtocol.Grpc, request.FileName, Preconditions.IfMatches(request.IfMatch), context.CancellationToken);
        return new DeleteFileResponse();
    }
}
