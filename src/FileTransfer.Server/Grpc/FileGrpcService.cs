using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using FileTransfer.Server.Storage;
using Grpc.Core;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// The gRPC FileService: a thin adapter that translates the contract's messages to the same
/// storage core the REST controllers call (path resolver, catalog, digests, upload sessions with
/// atomic commit). The core's refusals become status codes in one place, <see cref="CoreErrorInterceptor"/>.
/// Each RPC needs the scope REST demands for the same operation. Bound by <see cref="FileServiceBinding"/>.
/// </summary>
[BindServiceMethod(typeof(FileServiceBinding), nameof(FileServiceBinding.BindService))]
internal sealed partial class FileGrpcService(
    StoragePathResolver resolver,
    FileCatalog catalog,
    DigestStore digests,
    FileStore store,
    IOptions<GrpcTransferOptions> options,
    ILogger<FileGrpcService> logger) : FileService.FileServiceBase
{
    [Authorize(Scopes.Read)]
    public override async Task DownloadFile(DownloadFileRequest request, IServerStreamWriter<DownloadFileResponse> responseStream, ServerCallContext context)
    {
        var cancellationToken = context.CancellationToken;
        var path = Resolve(request.FileName);
        if (request.Offset < 0 || request.Limit < 0)
        {
            throw GrpcErrors.InvalidArgument(GrpcErrors.Reasons.InvalidRange, "offset and limit must not be negative.");
        }

        // Opened once: the metadata and every chunk come from this version, whatever replaces the name meanwhile.
        using var opened = catalog.Open(path, out var file) ?? throw GrpcErrors.NotFound(path.Name);
        new Preconditions(IfMatch: IfMatch(request.IfMatch)).Check(path.Name, file);
        if (request.Offset > file!.Size)
        {
            throw GrpcErrors.OffsetPastEnd(request.Offset, file.Size);
        }

        var available = file.Size - request.Offset;
        var count = request.Limit == 0 ? available : Math.Min(request.Limit, available);
        var sha256 = await digests.GetAsync(file, cancellationToken);
        await responseStream.WriteAsync(new DownloadFileResponse { Metadata = ProtoFiles.Metadata(file, sha256) }, cancellationToken);
        await FileChunks.SendAsync(opened, request.Offset, count, options.Value.ChunkSizeBytes, responseStream, cancellationToken);
    }

    [Authorize(Scopes.Read)]
    public override async Task<FileMetadata> GetFileInfo(GetFileInfoRequest request, ServerCallContext context)
    {
        var path = Resolve(request.FileName);
        var file = catalog.Find(path) ?? throw GrpcErrors.NotFound(path.Name);
        return ProtoFiles.Metadata(file, await digests.GetAsync(file, context.CancellationToken));
    }

    [Authorize(Scopes.Read)]
    public override Task<ListFilesResponse> ListFiles(ListFilesRequest request, ServerCallContext context)
    {
        var page = catalog.List(new ListQuery(request.Prefix, request.PageSize, request.PageToken), context.CancellationToken);
        // Listings carry no digest: hashing every listed file would make a listing cost a full read of the tree.
        var response = new ListFilesResponse { NextPageToken = page.NextPageToken ?? "" };
        response.Files.AddRange(page.Files.Select(file => ProtoFiles.Metadata(file, sha256: null)));
        return Task.FromResult(response);
    }

    [Authorize(Scopes.Delete)]
    public override async Task<DeleteFileResponse> DeleteFile(DeleteFileRequest request, ServerCallContext context)
    {
        var path = Resolve(request.FileName);
        var deleted = await store.DeleteAsync(path, new Preconditions(IfMatch: IfMatch(request.IfMatch)), context.CancellationToken);
        return deleted ? new DeleteFileResponse() : throw GrpcErrors.NotFound(path.Name);
    }

    private StoragePath Resolve(string name) =>
        resolver.TryResolve(name, out var path, out var rejection) ? path : throw GrpcErrors.InvalidName(rejection);

    // An empty if_match is proto3's "not set".
    private static IReadOnlyList<string>? IfMatch(string etag) => etag.Length > 0 ? [etag] : null;
}
