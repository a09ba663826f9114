using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// A credential that was presented is judged on its own: a key or link that does not grant the
/// request is 403 whether or not anonymous reads are on (Development turns them on), a refused
/// one is 401, and only a caller that sent nothing reads anonymously.
/// </summary>
public sealed class CredentialScopeTests
{
    public static TheoryData<bool, string, string, string, string> NotGranted => new()
    {
        { false, "read-link", "GET", "/api/files/other.txt", "for another file" },
        { true, "read-link", "GET", "/api/files/other.txt", "for another file" },
        { true, "read-link", "HEAD", "/api/files/other.txt", "for another file" },
        { true, "read-link", "GET", "/api/files", "cannot list" },
        { true, "read-link", "GET", "/api/files?prefix=f", "cannot list" },
        { true, "write-link", "GET", "/api/files/f.txt", "does not grant 'read'" },
        { true, "write-key", "GET", "/api/files/f.txt", "does not have the 'read' scope" },
        { true, "write-key", "GET", "/api/files", "does not have the 'read' scope" },
        { false, "delete-key", "HEAD", "/api/files/f.txt", "does not have the 'read' scope" },
        { true, "delete-key", "HEAD", "/api/files/f.txt", "does not have the 'read' scope" },
    };

    [Theory]
    [MemberData(nameof(NotGranted))]
    public async Task A_Credential_That_Does_Not_Grant_The_Read_Is_403_Even_With_Anonymous_Reads(
        bool anonymousReads, string credential, string method, string path, string reason)
    {
        using var factory = Server(anonymousReads);
        var (client, token) = await ClientAsync(factory, credential);
        using var _ = client;
        var target = token is null ? path : path + (path.Contains('?', StringComparison.Ordinal) ? "&" : "?") + "sig=" + token;

        using var response = await client.SendAsync(new HttpRequestMessage(new HttpMethod(method), target), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        if (method != "HEAD")
        {
            var problem = await Problems.AssertAsync(response, HttpStatusCode.Forbidden);
            Assert.Contains(reason, problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Refused_Credentials_Are_401_And_Nothing_Reads_Anonymously_Only_With_Anonymous_Reads(bool anonymousReads)
    {
        using var factory = Server(anonymousReads);
        using var nothing = factory.ClientWith(null);
        using var wrongKey = factory.ClientWith("not-a-configured-key-0000");
        var link = await IssueAsync(factory, "f.txt", "read");
        var altered = link[..^2] + (link[^2] == 'A' ? "B" : "A") + link[^1];

        using var anonymousFile = await nothing.GetAsync("/api/files/f.txt", TestTimeout.Token);
        using var anonymousList = await nothing.GetAsync("/api/files", TestTimeout.Token);
        using var wrongKeyFile = await wrongKey.GetAsync("/api/files/f.txt", TestTimeout.Token);
        using var alteredLink = await nothing.GetAsync($"/api/files/f.txt?sig={altered}", TestTimeout.Token);
        using var ownFile = await nothing.GetAsync($"/api/files/f.txt?sig={link}", TestTimeout.Token);

        var anonymous = anonymousReads ? HttpStatusCode.OK : HttpStatusCode.Unauthorized;
        Assert.Equal(anonymous, anonymousFile.StatusCode);
        Assert.Equal(anonymous, anonymousList.StatusCode);
        await Problems.AssertAsync(wrongKeyFile, HttpStatusCode.Unauthorized);
        await Problems.AssertAsync(alteredLink, HttpStatusCode.Unauthorized);
        Assert.Contains("invalid_token", alteredLink.Headers.WwwAuthenticate.ToString(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, ownFile.StatusCode);
    }

    /// <summary>
    /// An endpoint shaped like a gRPC method, with no name in its route, is judged at the edge by the
    /// caller's scopes alone (which names it reaches is the core's policy, in every operation): keys
    /// and (where allowed) callers without credentials are treated exactly as on REST.
    /// </summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task A_Call_Without_A_Path_Route_Value_Is_Judged_By_The_Callers_Scopes(bool anonymousReads)
    {
        using var factory = Server(anonymousReads);
        var writeLink = await IssueAsync(factory, "f.txt", "write");
        using var nothing = factory.ClientWith(null);
        using var readKey = factory.ClientWith(SecurityFactory.ReadKey);
        using var writeKey = factory.ClientWith(SecurityFactory.WriteKey);

        using var byWriteLink = await nothing.PostAsync($"/probe.v1.ProbeService/Read?sig={writeLink}", null, TestTimeout.Token);
        using var byReadKey = await readKey.PostAsync("/probe.v1.ProbeService/Read", null, TestTimeout.Token);
        using var byWriteKey = await writeKey.PostAsync("/probe.v1.ProbeService/Read", null, TestTimeout.Token);
        using var byNothing = await nothing.PostAsync("/probe.v1.ProbeService/Read", null, TestTimeout.Token);

        var problem = await Problems.AssertAsync(byWriteLink, HttpStatusCode.Forbidden);
        Assert.Contains("does not grant 'read'", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, byReadKey.StatusCode);
        await Problems.AssertAsync(byWriteKey, HttpStatusCode.Forbidden);
        Assert.Equal(anonymousReads ? HttpStatusCode.OK : HttpStatusCode.Unauthorized, byNothing.StatusCode);
    }

    private static SecurityFactory Server(bool anonymousReads)
    {
        var factory = new SecurityFactory();
        factory.With("Auth:AllowAnonymousRead", anonymousReads ? "true" : "false");
        factory.Storage.Write("f.txt", [1]);
        factory.Storage.Write("other.txt", [2]);
        return factory;
    }

    /// <summary>A client for <paramref name="credential"/>, and the token it must add to its URLs when the credential is a link for f.txt.</summary>
    private static async Task<(HttpClient Client, string? Token)> ClientAsync(SecurityFactory factory, string credential) => credential switch
    {
        "read-link" => (factory.ClientWith(null), await IssueAsync(factory, "f.txt", "read")),
        "write-link" => (factory.ClientWith(null), await IssueAsync(factory, "f.txt", "write")),
        "write-key" => (factory.ClientWith(SecurityFactory.WriteKey), null),
        _ => (factory.ClientWith(SecurityFactory.DeleteKey), null),
    };

    private static async Task<string> IssueAsync(SecurityFactory factory, string path, string access)
    {
        using var issuer = factory.ClientWith(FileTransferFactory.TestKey);
        return (await SignedLinkTests.IssueAsync(issuer, new { path, access })).Token;
    }
}
