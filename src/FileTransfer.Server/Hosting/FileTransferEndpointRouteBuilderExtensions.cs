using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Grpc;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Security;
using FileTransfer.Server.Storage;

namespace FileTransfer.Server.Hosting;

/// <summary>Maps the FileTransfer endpoints onto the application.</summary>
public static class FileTransferEndpointRouteBuilderExtensions
{
    /// <summary>Adds error handling, the REST API, the gRPC FileService, health, OpenAPI and Swagger UI.</summary>
    public static WebApplication MapFileTransfer(this WebApplication app)
    {
        if (app.Services.GetService<FileTransferMarker>() is null)
        {
            throw new InvalidOperationException(
                "Unable to find the required services. Call builder.AddFileTransfer() before app.MapFileTransfer().");
        }

        // Every 4xx/5xx, including unmatched routes and unhandled exceptions, is problem+json.
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.UseProblemsForEmptyFileErrors();
        PipeSendFileFeature.Use(app);
        app.UseTransferDiagnostics();

        app.UseFileTransferSecurity();

        app.MapControllers().RequireFileScopes();
        app.MapFileTransferGrpc();
        app.MapHealthChecks("/healthz");
        app.MapRuntimeEndpoint();
        app.MapOpenApi();
        app.UseSwaggerUI(options =>
        {
            options.SwaggerEndpoint("/openapi/v1.json", "FileTransfer v1");
            options.DocumentTitle = "FileTransfer API";
        });

        var root = app.Services.GetRequiredService<StorageRoot>();
        var endpoints = app.Services.GetRequiredService<ListeningEndpoints>();
        app.Lifetime.ApplicationStarted.Register(() => Log.Started(app.Logger, root.FullPath, endpoints, app.Services.GetRequiredService<ConnectionGate>()));
        return app;
    }
}
