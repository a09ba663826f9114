using System.Net.Mime;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Maps <see cref="FileDownloads"/> at <c>GET</c> and <c>HEAD api/files/{**path}</c> with what the MVC
/// action declared: the <see cref="FileOperation.Read"/> operation (its scopes, by the one convention),
/// the <c>Files</c> tag, and the responses in the same order, so that the OpenAPI document describes
/// the operation as before (the operation transformer adds its headers and details).
/// </summary>
internal static class FileDownloadEndpoint
{
    public const string Pattern = Routes.Files + "/{**" + EncodedSeparators.PathRouteValue + "}";

    private const string ProblemJson = "application/problem+json";

    public static IEndpointConventionBuilder MapFileDownloads(this IEndpointRouteBuilder endpoints)
    {
        var downloads = ActivatorUtilities.CreateInstance<FileDownloads>(endpoints.ServiceProvider);
        return endpoints.MapMethods(Pattern, [HttpMethods.Get, HttpMethods.Head], downloads.Download)
            .WithMetadata(new OperationAttribute(FileOperation.Read))
            .WithTags("Files")
            // No response type: OpenApi/DownloadDescription writes the bytes' schema, and a result type
            // would ask the JSON metadata for a schema of the result object (none exists under Native AOT).
            .Produces(StatusCodes.Status200OK, contentType: MediaTypeNames.Application.Octet)
            .Produces(StatusCodes.Status206PartialContent, contentType: MediaTypeNames.Application.Octet)
            .Produces(StatusCodes.Status304NotModified)
            .Produces<ProblemDetails>(StatusCodes.Status400BadRequest, ProblemJson)
            .Produces<ProblemDetails>(StatusCodes.Status404NotFound, ProblemJson)
            .Produces(StatusCodes.Status412PreconditionFailed)
            .Produces(StatusCodes.Status416RangeNotSatisfiable)
            .RequireOperationScopes();
    }
}
