using Microsoft.AspNetCore.Routing.Matching;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Routing's choice between endpoints of one route and method that speak different upload protocols
/// (<see cref="UploadProtocolAttribute"/>): on <c>PUT/POST api/files/{path}</c> a plain upload or the
/// draft's upload creation, on <c>HEAD/PATCH/DELETE api/uploads/{uploadId}</c> tus or the draft's upload
/// resource. The request's header fields are read here, once; the chosen endpoint's action reads only
/// its own protocol's, and authorization, rate limits and the transfer observers see that endpoint.
/// </summary>
/// <remarks>
/// A matcher policy is how routing itself chooses among the endpoints of one route by what a request
/// carries (the HTTP method, the host, the body's type: <c>HttpMethodMatcherPolicy</c>,
/// <c>HostMatcherPolicy</c>, <c>AcceptsMatcherPolicy</c>). The alternatives fit worse: a route
/// constraint (<c>IRouteConstraint</c>) judges route values, not header fields, and is asked once per
/// route, not among the candidates; an MVC action constraint (<c>ActionMethodSelectorAttribute</c>, as
/// <c>[Consumes]</c>) judges each action alone, so each would hold half of a rule ("names a version" and
/// "names none"). Here one rule decides between two endpoints, and <see cref="AppliesToEndpoints"/>
/// keeps it off every route where no two protocols meet (downloads and listings never run it).
/// </remarks>
internal sealed class UploadProtocolPolicy(IOptions<DraftUploadOptions> draft) : MatcherPolicy, IEndpointSelectorPolicy
{
    // After the choice by method (HttpMethodMatcherPolicy, -1000): only one method's endpoints compete.
    public override int Order => 0;

    public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) =>
        endpoints.Select(ProtocolOf).OfType<UploadProtocol>().Distinct().Skip(1).Any();

    public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
    {
        // The draft shares each of its routes with one other protocol: a plain upload on the target,
        // tus on an upload resource. A route with only one of them has nothing to choose.
        var (offersDraft, other) = (false, (UploadProtocol?)null);
        for (var i = 0; i < candidates.Count; i++)
        {
            if (candidates.IsValidCandidate(i) && ProtocolOf(candidates[i].Endpoint) is { } protocol)
            {
                offersDraft |= protocol == UploadProtocol.Draft;
                other ??= protocol == UploadProtocol.Draft ? null : protocol;
            }
        }

        if (offersDraft && other is { } alternative)
        {
            var spoken = SpeaksDraft(httpContext.Request, alternative) ? UploadProtocol.Draft : alternative;
            for (var i = 0; i < candidates.Count; i++)
            {
                if (ProtocolOf(candidates[i].Endpoint) is { } protocol && protocol != spoken)
                {
                    candidates.SetValidity(i, false);
                }
            }
        }

        return Task.CompletedTask;
    }

    // On the target, a request creates a draft upload only when it says so (else it is a plain
    // upload); on an upload resource, any request naming an interop version is the draft's (one not
    // served is refused there with 412), any other tus's (one without Tus-Resumable is refused there).
    private bool SpeaksDraft(HttpRequest request, UploadProtocol other) => other == UploadProtocol.Plain
        ? DraftProtocol.CreatesUpload(request, draft.Value.InteropVersions)
        : DraftProtocol.NamesInteropVersion(request);

    private static UploadProtocol? ProtocolOf(Endpoint endpoint) => endpoint.Metadata.GetMetadata<UploadProtocolAttribute>()?.Protocol;
}
