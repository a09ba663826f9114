using System.Collections.Concurrent;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Matching;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>
/// Routing, not an action, chooses the protocol of a request to an upload: what a request's header
/// fields say decides which one endpoint is left (seen by a matcher policy that runs after every
/// other), whatever the chosen endpoint then answers.
/// </summary>
public sealed class ProtocolRoutingTests : IDisposable
{
    private const string Draft6 = "Upload-Draft-Interop-Version: 6";
    private readonly ChosenEndpoints _chosen = new();
    private readonly FileTransferFactory _factory;

    public ProtocolRoutingTests()
    {
        _factory = new FileTransferFactory().WithServices(services => services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy>(_chosen)));
    }

    [Theory]
    [InlineData("HEAD", "", "Tus")] // tus answers 412 to a request that does not say Tus-Resumable
    [InlineData("HEAD", "Tus-Resumable: 1.0.0", "Tus")]
    [InlineData("HEAD", Draft6, "Draft")]
    [InlineData("HEAD", "Upload-Draft-Interop-Version: 99", "Draft")] // the draft refuses a version it does not serve (412)
    [InlineData("HEAD", "Upload-Draft-Interop-Version: x", "Draft")]
    [InlineData("PATCH", "Tus-Resumable: 1.0.0", "Tus")]
    [InlineData("PATCH", "Tus-Resumable: 1.0.0|" + Draft6, "Draft")]
    [InlineData("PATCH", Draft6 + "|Upload-Complete: ?1", "Draft")]
    [InlineData("DELETE", "Tus-Resumable: 1.0.0", "Tus")]
    [InlineData("DELETE", Draft6, "Draft")]
    public async Task A_Request_To_An_Upload_Is_Routed_To_Tus_Or_The_Draft_By_Its_Header_Fields(string method, string headers, string expected)
    {
        Assert.Equal(expected, await ChosenForAsync(method, "/api/uploads/0123456789abcdef", headers));
    }

    [Theory]
    [InlineData("PUT", "", "Plain")]
    [InlineData("PUT", "Tus-Resumable: 1.0.0", "Plain")]
    [InlineData("PUT", Draft6, "Plain")] // says nothing of completeness: a plain upload
    [InlineData("PUT", Draft6 + "|Upload-Complete: ?0", "Draft")]
    [InlineData("POST", Draft6 + "|Upload-Complete: ?1", "Draft")]
    [InlineData("POST", Draft6 + "|Upload-Complete: yes", "Plain")] // no sf-boolean
    [InlineData("PUT", "Upload-Draft-Interop-Version: 99|Upload-Complete: ?1", "Plain")] // a version not served, with the whole file
    [InlineData("PUT", "Upload-Draft-Interop-Version: 99|Upload-Complete: ?0", "Draft")] // ... asking to be resumed: the draft refuses (412)
    [InlineData("PUT", "Upload-Draft-Interop-Version: x|Upload-Complete: ?0", "Plain")]
    [InlineData("POST", "Upload-Draft-Interop-Version: 3|Upload-Incomplete: ?1", "Draft")] // version 3 says Upload-Incomplete
    [InlineData("POST", "Upload-Draft-Interop-Version: 3|Upload-Complete: ?0", "Plain")]
    public async Task A_Write_To_A_File_Is_Routed_To_A_Plain_Upload_Or_The_Drafts_Creation_By_Its_Header_Fields(string method, string headers, string expected)
    {
        Assert.Equal(expected, await ChosenForAsync(method, "/api/files/routing/chosen.bin", headers));
    }

    [Fact]
    public async Task Routes_Where_No_Two_Protocols_Meet_Are_Not_Looked_At()
    {
        // tus alone at POST api/uploads: whatever the request says, tus answers it (412 without Tus-Resumable).
        Assert.Null(await ChosenForAsync("POST", "/api/uploads", Draft6 + "|Upload-Complete: ?0"));
        Assert.Null(await ChosenForAsync("GET", "/api/files/routing/chosen.bin", Draft6));
    }

    public void Dispose() => _factory.Dispose();

    // Sends the request and says which protocol's endpoint routing left for it (null: no choice was made).
    private async Task<string?> ChosenForAsync(string method, string path, string headers)
    {
        var id = Guid.NewGuid().ToString("N");
        using var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (method is "PUT" or "POST" or "PATCH")
        {
            request.Content = new ByteArrayContent([1, 2, 3]);
        }

        request.Headers.Add(ChosenEndpoints.IdHeader, id);
        foreach (var field in headers.Split('|', StringSplitOptions.RemoveEmptyEntries))
        {
            var (name, value) = (field[..field.IndexOf(':')], field[(field.IndexOf(':') + 1)..].Trim());
            request.Headers.Add(name, value);
        }

        using var client = _factory.CreateClient();
        using var response = await client.SendAsync(request, TestTimeout.Token);
        return _chosen.Remaining.TryGetValue(id, out var chosen) ? Assert.Single(chosen) : null;
    }

    /// <summary>Runs after every other selector policy and notes the protocols of the endpoints still valid.</summary>
    private sealed class ChosenEndpoints : MatcherPolicy, IEndpointSelectorPolicy
    {
        public const string IdHeader = "X-Test-Request";

        public ConcurrentDictionary<string, string[]> Remaining { get; } = new();

        public override int Order => int.MaxValue;

        public bool AppliesToEndpoints(IReadOnlyList<Endpoint> endpoints) =>
            endpoints.Select(e => e.Metadata.GetMetadata<UploadProtocolAttribute>()?.Protocol).OfType<UploadProtocol>().Distinct().Count() > 1;

        public Task ApplyAsync(HttpContext httpContext, CandidateSet candidates)
        {
            var valid = Enumerable.Range(0, candidates.Count).Where(candidates.IsValidCandidate)
                .Select(i => candidates[i].Endpoint.Metadata.GetMetadata<UploadProtocolAttribute>()?.Protocol.ToString() ?? "none");
            Remaining[httpContext.Request.Headers[IdHeader].ToString()] = [.. valid];
            return Task.CompletedTask;
        }
    }
}
