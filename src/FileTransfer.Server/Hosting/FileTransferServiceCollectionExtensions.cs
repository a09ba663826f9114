using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Grpc;
using FileTransfer.Server.OpenApi;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Security;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>Registers the FileTransfer server: storage core, REST endpoints, gRPC service, health, OpenAPI.</summary>
public static class FileTransferServiceCollectionExtensions
{
    /// <summary>Adds every service <see cref="FileTransferEndpointRouteBuilderExtensions.MapFileTransfer"/> needs.</summary>
    public static WebApplicationBuilder AddFileTransfer(this WebApplicationBuilder builder)
    {
        var services = builder.Services;

        services.AddFileTransferCore();
        services.AddSingleton<IContentTypeMap, ContentTypeMap>();
        builder.AddStorageBackend();
        services.AddSingleton(TimeProvider.System);

        services.AddKestrelTuning();
        services.AddOptions<TransferTuningOptions>().BindConfiguration(TransferTuningOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<TransferTuningOptions>, TransferTuningOptionsAttributes>();
        services.AddSingleton(provider => new SendBudget(provider.GetRequiredService<IOptions<TransferTuningOptions>>().Value.SendBudgetBytes));
        services.AddRuntimeEndpoint();

        services.AddOptions<DraftUploadOptions>().BindConfiguration(UploadSessionOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<DraftUploadOptions>, DraftUploadOptionsAttributes>();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy, UploadProtocolPolicy>());
        services.AddSingleton<OpenedFileResultExecutor>();
        // A parameter that does not bind is answered by the REST error filter (MALFORMED_MESSAGE) in every
        // environment: the framework would throw in Development only (its default), which the
        // exception handler cannot tell from Kestrel's refusals of a body.
        services.PostConfigure<RouteHandlerOptions>(options => options.ThrowOnBadRequest = false);
        services.AddEndpointsApiExplorer();
        services.AddRestJson();
        services.AddProblemDetails();
        services.AddExceptionHandler<ProblemExceptionHandler>();
        services.Configure<ExceptionHandlerOptions>(options => options.SuppressDiagnosticsCallback = ProblemExceptionHandler.SuppressDiagnostics);
        services.AddOpenApi(options => options.AddFileTransferDescriptions());
        services.AddFileTransferHealth();
        services.AddFileTransferGrpc();
        services.AddTransferDiagnostics();
        services.AddSingleton<RefusedRequests>();
        builder.AddFileTransferSecurity();
        services.AddFileTransferCors();
        services.RemoveUnusedStartupWork();
        services.AddSingleton<FileTransferMarker>();
        return builder;
    }
}

/// <summary>Proves that AddFileTransfer ran before MapFileTransfer.</summary>
internal sealed class FileTransferMarker;
