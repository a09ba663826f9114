using FileTransfer.Core;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Grpc;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.OpenApi;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Security;
using FileTransfer.Server.Web;

namespace FileTransfer.Server.Hosting;

/// <summary>Maps the FileTransfer endpoints onto the application.</summary>
public static class FileTransferEndpointRouteBuilderExtensions
{
    /// <summary>Adds error handling, the web page, the REST API, the gRPC FileService, health, OpenAPI and Swagger UI.</summary>
    public static WebApplication MapFileTransfer(this WebApplication app)
    {
        if (app.Services.GetService<FileTransferMarker>() is null)
        {
            throw new InvalidOperationException(
                "Unable to find the required services. Call builder.AddFileTransfer() before app.MapFileTransfer().");
        }

        // An exception nothing closer handled is answered by Protocol/ProblemExceptionHandler.
        app.UseExceptionHandler();
        app.UseFileTransferCors();
        // The web page is public and short-circuits before the API's diagnostics and security.
        app.UseWebPage();
        // Before the transfer log and the security checks: a refusal while stopping costs nothing more.
        app.UseDrainGate();
        app.UseTransferDiagnostics();
        EncodedSeparators.Use(app);

        app.UseFileTransferSecurity();

        app.MapRestApi();
        app.MapFileDownloads();
        app.MapFileTransferGrpc();
        app.MapFileTransferHealth();
        app.MapRuntimeEndpoint();
        app.MapOpenApi();
        app.UseSwaggerUiPage();

        // Last: what no middleware answered and routing found nothing (or only its 405) for.
        app.UseUnmatchedRequests();

        var storage = app.Services.GetRequiredService<FileOperations>().Location;
        var endpoints = app.Services.GetRequiredService<ListeningEndpoints>();
        app.Lifetime.ApplicationStarted.Register(() => Log.Started(app.Logger, storage, endpoints, app.Services.GetRequiredService<ConnectionGate>()));
        return app;
    }
}
