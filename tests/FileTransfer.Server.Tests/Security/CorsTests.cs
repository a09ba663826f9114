using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// CORS (<c>Cors:AllowedOrigins</c>): none by default; for a listed origin, preflights for every
/// method and header of the REST API, tus and the draft, and the response headers their clients
/// read exposed, on refusals too; another origin gets nothing a browser would accept.
/// </summary>
public sealed class CorsTests : IDisposable
{
    private const string Allowed = "https://app.example.com";

    private readonly FileTransferFactory _factory = new FileTransferFactory().With("Cors:AllowedOrigins:0", Allowed);

    public static TheoryData<string, string, string> Preflights => new()
    {
        { "PUT", "/api/files/a.bin", "authorization, content-type, content-digest, if-match, if-none-match" },
        { "GET", "/api/files/a.bin", "authorization, range, if-range, if-none-match" },
        { "DELETE", "/api/files/a.bin", "authorization, if-match" },
        { "POST", "/api/files", "authorization, content-type" },
        { "POST", "/api/uploads", "authorization, tus-resumable, upload-length, upload-metadata, upload-defer-length, upload-checksum, content-type" },
        { "PATCH", "/api/uploads/abcdefghijklmnopqrstuv", "authorization, tus-resumable, upload-offset, upload-checksum, content-type" },
        { "HEAD", "/api/uploads/abcdefghijklmnopqrstuv", "authorization, tus-resumable, upload-draft-interop-version" },
        { "POST", "/api/files/b.bin", "authorization, upload-draft-interop-version, upload-complete, upload-length, content-digest, repr-digest" },
        { "PATCH", "/api/uploads/abcdefghijklmnopqrstuv", "authorization, upload-draft-interop-version, upload-offset, upload-complete, content-type" },
        { "POST", "/api/links", "authorization, content-type" },
    };

    [Theory]
    [MemberData(nameof(Preflights))]
    public async Task A_Preflight_From_An_Allowed_Origin_Is_Answered_Without_A_Key(string method, string path, string headers)
    {
        using var client = _factory.CreateClient();
        client.DefaultRequestHeaders.Authorization = null;

        using var answer = await client.SendAsync(Preflight(path, Allowed, method, headers), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.NoContent, answer.StatusCode);
        Assert.Equal(Allowed, answer.Headers.GetValues("Access-Control-Allow-Origin").Single());
        Assert.Contains(method, answer.Headers.GetValues("Access-Control-Allow-Methods").Single().Split(','));
        var allowedHeaders = answer.Headers.GetValues("Access-Control-Allow-Headers").Single().Split(',', StringSplitOptions.TrimEntries);
        Assert.All(headers.Split(',', StringSplitOptions.TrimEntries), header => Assert.Contains(header, allowedHeaders, StringComparer.OrdinalIgnoreCase));
    }

    [Fact]
    public async Task The_Headers_Upload_Clients_Read_Are_Exposed_On_Answers_And_Refusals()
    {
        using var client = _factory.CreateClient();
        using var create = Tus.Create(10, ("filename", "cors.bin"));
        create.Headers.Add("Origin", Allowed);
        using var created = await client.SendAsync(create, TestTimeout.Token);
        using var anonymous = new HttpRequestMessage(HttpMethod.Get, "/api/files/cors.bin");
        anonymous.Headers.Add("Origin", Allowed);
        using var noKey = _factory.CreateClient();
        noKey.DefaultRequestHeaders.Authorization = null;
        using var refused = await noKey.SendAsync(anonymous, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal(Allowed, created.Headers.GetValues("Access-Control-Allow-Origin").Single());
        var exposed = created.Headers.GetValues("Access-Control-Expose-Headers").Single().Split(',', StringSplitOptions.TrimEntries);
        Assert.Superset(
            new HashSet<string>(["Location", "Upload-Offset", "Upload-Length", "Upload-Expires", "Tus-Resumable", "Tus-Version", "Tus-Extension", "Tus-Max-Size", "Tus-Checksum-Algorithm", "ETag", "Repr-Digest", "Content-Disposition", "Retry-After", "Upload-Complete", "Upload-Limit"]),
            new HashSet<string>(exposed));
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Equal(Allowed, refused.Headers.GetValues("Access-Control-Allow-Origin").Single());
    }

    [Fact]
    public async Task Another_Origin_Gets_No_Cors_Header()
    {
        using var client = _factory.CreateClient();
        using var preflight = await client.SendAsync(Preflight("/api/uploads", "https://evil.example.net", "POST", "authorization, tus-resumable"), TestTimeout.Token);
        using var get = new HttpRequestMessage(HttpMethod.Get, "/api/files");
        get.Headers.Add("Origin", "https://evil.example.net");
        using var listed = await client.SendAsync(get, TestTimeout.Token);

        Assert.False(preflight.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.False(listed.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Fact]
    public async Task Without_Allowed_Origins_No_Response_Has_A_Cors_Header()
    {
        using var factory = new FileTransferFactory();
        using var client = factory.CreateClient();
        using var get = new HttpRequestMessage(HttpMethod.Get, "/api/files");
        get.Headers.Add("Origin", Allowed);

        using var preflight = await client.SendAsync(Preflight("/api/uploads", Allowed, "POST", "authorization"), TestTimeout.Token);
        using var listed = await client.SendAsync(get, TestTimeout.Token);

        Assert.DoesNotContain(preflight.Headers.Concat(listed.Headers), h => h.Key.StartsWith("Access-Control-", StringComparison.OrdinalIgnoreCase));
    }

    [Theory]
    [InlineData("https://app.example.com/path")]
    [InlineData("app.example.com")]
    [InlineData("ftp://app.example.com")]
    public void A_Listed_Origin_That_Is_Not_An_Origin_Stops_The_Server_At_Start(string origin)
    {
        using var factory = new FileTransferFactory().With("Cors:AllowedOrigins:0", origin);

        var error = Assert.ThrowsAny<Exception>(() => factory.CreateClient());

        Assert.Contains("Cors:AllowedOrigins", error.ToString(), StringComparison.Ordinal);
    }

    public void Dispose() => _factory.Dispose();

    private static HttpRequestMessage Preflight(string path, string origin, string method, string headers)
    {
        var request = new HttpRequestMessage(HttpMethod.Options, path);
        request.Headers.Add("Origin", origin);
        request.Headers.Add("Access-Control-Request-Method", method);
        request.Headers.Add("Access-Control-Request-Headers", headers);
        return request;
    }
}
