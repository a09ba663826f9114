using FileTransfer.Protos.V1;
using FileTransfer.Server.Security;
using Google.Protobuf;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Grpc;

/// <summary>Registers and maps the gRPC FileService, server reflection and the gRPC health service.</summary>
internal static class GrpcRegistration
{
    /// <summary>
    /// Exactly one UploadFile message holding a 4 MiB chunk: the chunk, its field tag and its length
    /// prefix. A message with one byte more is refused by the framework (RESOURCE_EXHAUSTED) before
    /// the service sees it, so nothing is written. Metadata messages are far smaller.
    /// </summary>
    public static readonly int MaxReceiveMessageBytes =
        CodedOutputStream.ComputeTagSize(UploadFileRequest.ChunkFieldNumber)
        + CodedOutputStream.ComputeLengthSize(GrpcTransferOptions.MaxChunkBytes)
        + GrpcTransferOptions.MaxChunkBytes;

    public static IServiceCollection AddFileTransferGrpc(this IServiceCollection services)
    {
        services.AddOptions<GrpcTransferOptions>()
            .BindConfiguration(GrpcTransferOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<GrpcTransferOptions>, GrpcTransferOptionsAttributes>();
        services.AddSingleton<MalformedMessageInterceptor>();
        services.AddSingleton<CoreErrorInterceptor>();
        // Unknown services fall through to routing (HTTP 404, which gRPC clients report as
        // UNIMPLEMENTED) instead of catch-all "{service}/{method}" routes, which would match every
        // two-segment POST and turn REST's 405 and 415 answers into 404.
        services.AddGrpc(options => options.IgnoreUnknownServices = true)
            .AddServiceOptions<FileGrpcService>(options =>
            {
                options.MaxReceiveMessageSize = MaxReceiveMessageBytes;
                // Outermost first: a message that did not parse is refused before anything else runs.
                options.Interceptors.Add<MalformedMessageInterceptor>();
                options.Interceptors.Add<CoreErrorInterceptor>();
            });
        services.AddGrpcReflection();
        // Run on each Check call; the overall status ("") is readiness (Hosting maps it).
        services.AddGrpcHealthChecks();
        return services;
    }

    public static void MapFileTransferGrpc(this WebApplication app)
    {
        app.MapGrpcService<FileGrpcService>().RequireOperationScopes();
        app.MapGrpcReflectionService();
        app.MapGrpcHealthChecksService();
    }
}
