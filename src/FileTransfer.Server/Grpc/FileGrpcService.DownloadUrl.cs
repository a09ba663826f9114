using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    /// <summary>
    /// gRPC's counterpart of REST's redirect: the store's presigned URL of the version opened now
    /// (with <c>if_match</c> checked against it), described as REST would describe it. The core refuses
    /// (<see cref="ErrorReason.DirectDownloadUnavailable"/>, FAILED_PRECONDITION) where downloads are
    /// not redirected: the local disk, or a store without <c>Storage:S3:RedirectDownloads</c>.
    /// </summary>
    [Operation(FileOperation.Read)]
    public override async Task<GetDownloadUrlResponse> GetDownloadUrl(GetDownloadUrlRequest request, ServerCallContext context)
    {
        // Refused before the name is even looked at: on this server no file has such a URL.
        if (!files.RedirectsDownloads)
        {
            throw Failures.DirectDownloadUnavailable();
        }

        var caller = Callers.Of(context.GetHttpContext());
        await using var file = await files.OpenAsync(caller, request.FileName, Preconditions.IfMatches(request.IfMatch), context.CancellationToken);
        var target = files.GetDownloadUrl(caller, file, DownloadDisposition.For(file.Version));

        // The digest only when known: computing it would read the whole file through this server.
        return new GetDownloadUrlResponse
        {
            Url = target.Url.AbsoluteUri,
            ExpiresAt = Timestamp.FromDateTimeOffset(target.ExpiresAt),
            Metadata = ProtoFiles.Metadata(file.Version, file.Sha256),
        };
    }
}
