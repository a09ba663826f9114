using System.Net.Mime;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Maps the REST API beside the downloads (<see cref="FileDownloadEndpoint"/>): plain endpoints, no
/// MVC, so that the server neither builds an application model at start nor runs action and result
/// invokers per request, and can be compiled ahead of time. Every endpoint here answers what it
/// throws through <see cref="RestErrorFilter"/> and requires its operation's scopes; the tags are the
/// OpenAPI document's groups, as they were.
/// </summary>
internal static class RestEndpoints
{
    private const string FileRoute = Routes.Files + "/{**" + EncodedSeparators.PathRouteValue + "}";

    public static void MapRestApi(this IEndpointRouteBuilder endpoints)
    {
        var api = endpoints.MapGroup("").AddEndpointFilter<RestErrorFilter>().RequireOperationScopes();

        // In the order of the OpenAPI document's paths and tags.
        api.MapMethods(FileRoute, [HttpMethods.Put, HttpMethods.Post], FileWrites.Upload).WithTags("FileWrites");
        api.MapMethods(FileRoute, [HttpMethods.Options], FileWrites.Options).WithTags("FileWrites");
        api.MapDelete(FileRoute, FileWrites.Delete).WithTags("FileWrites");

        api.MapGet("api/caller", CallerEndpoint.Get).WithTags("Caller");

        // Not ambiguous, whatever the analyzer sees: routing's AcceptsMatcherPolicy ranks the endpoint that
        // consumes JSON first and sends every other body to the one that consumes anything.
#pragma warning disable ASP0022
        api.MapPost("api/links", LinkIssuing.Issue).Accepts<LinkRequest>(MediaTypeNames.Application.Json).WithTags("Links");
        api.MapPost("api/links", LinkIssuing.NotJson).WithTags("Links");
#pragma warning restore ASP0022

        api.MapGet("api/events", EventStream.Watch).WithTags("Events");

        api.MapGet(Routes.Files, FileListing.List).WithTags("Files");
        api.MapPost(Routes.Files, MultipartUploads.UploadForm).WithTags("MultipartUploads");

        // tus and the draft share the upload resources; routing chooses by the header fields (UploadProtocolPolicy).
        var tus = api.MapGroup("").WithTags("UploadSessions").WithMetadata(new UploadProtocolAttribute(UploadProtocol.Tus));
        tus.MapMethods(Routes.Uploads, [HttpMethods.Options], TusUploads.Discover);
        tus.MapPost(Routes.Uploads, TusUploads.Create);
        tus.MapMethods(DraftUploads.UploadRoute, [HttpMethods.Head], TusUploads.Status);
        tus.MapPatch(DraftUploads.UploadRoute, TusUploads.Append);
        tus.MapDelete(DraftUploads.UploadRoute, TusUploads.Cancel);

        // The OpenAPI document has one operation per path and method: the plain upload's and tus's describe these.
        var draft = api.MapGroup("").ExcludeFromDescription().WithMetadata(new UploadProtocolAttribute(UploadProtocol.Draft));
        draft.MapMethods(DraftUploads.FileRoute, [HttpMethods.Put, HttpMethods.Post], DraftUploads.Create);
        draft.MapMethods(DraftUploads.UploadRoute, [HttpMethods.Head], DraftUploads.Status);
        draft.MapPatch(DraftUploads.UploadRoute, DraftUploads.Append);
        draft.MapDelete(DraftUploads.UploadRoute, DraftUploads.Cancel);

        api.MapGet("api/usage", UsageReport.Get).WithTags("Usage");
    }
}
