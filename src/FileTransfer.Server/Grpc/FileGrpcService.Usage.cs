using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

internal sealed partial class FileGrpcService
{
    /// <summary>The usage of the quota on a folder, as REST's <c>GET api/usage</c>.</summary>
    [Operation(FileOperation.Read)]
    public override async Task<GetUsageResponse> GetUsage(GetUsageRequest request, ServerCallContext context)
    {
        var usage = await quotas.UsageAsync(Callers.Of(context.GetHttpContext()), request.Path, context.CancellationToken);
        return new GetUsageResponse
        {
            Path = usage.Path,
            UsedBytes = usage.UsedBytes,
            UsedFiles = usage.UsedFiles,
            MaxBytes = usage.MaxBytes,
            MaxFiles = usage.MaxFiles,
        };
    }
}
