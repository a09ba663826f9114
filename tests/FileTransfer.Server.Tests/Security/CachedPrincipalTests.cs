using System.Net;
using System.Security.Claims;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Each API key's principal is built once (<see cref="ApiKeyStore"/>) and shared by every request
/// with that key: the same instance, never another key's, and impossible to change.
/// </summary>
public sealed class CachedPrincipalTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Fact]
    public async Task Requests_With_One_Key_Share_One_Principal_And_Other_Keys_Get_Their_Own()
    {
        using var read = factory.ClientWith(SecurityFactory.ReadKey);
        using var readAsHeader = factory.ClientWith(SecurityFactory.ReadKey, asApiKeyHeader: true);
        using var full = factory.CreateClient();
        var probes = new[] { (read, "r1"), (read, "r2"), (readAsHeader, "r3"), (full, "f1"), (full, "f2") };

        foreach (var (client, probe) in probes)
        {
            using var response = await client.GetAsync($"/api/files/probe-principal/a.bin?probe={probe}", TestTimeout.Token);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        var principals = ScopeProbeEndpoints.Principals;
        var store = factory.Services.GetRequiredService<ApiKeyStore>();
        var readPrincipal = (await store.Find(SecurityFactory.ReadKey)!).Principal;
        Assert.Same(readPrincipal, principals["r1"]);
        Assert.Same(readPrincipal, principals["r2"]);
        Assert.Same(readPrincipal, principals["r3"]);
        Assert.Same(principals["f1"], principals["f2"]);
        Assert.NotSame(principals["r1"], principals["f1"]);
        Assert.Equal(["read"], principals["r1"].FindAll(FileTransferClaims.Scope).Select(c => c.Value));
        Assert.Equal(["delete", "read", "write"], principals["f1"].FindAll(FileTransferClaims.Scope).Select(c => c.Value).Order());
    }

    [Fact]
    public async Task The_Shared_Principal_Cannot_Be_Changed()
    {
        var store = factory.Services.GetRequiredService<ApiKeyStore>();
        var principal = (await store.Find(SecurityFactory.ReadKey)!).Principal!;
        var identity = Assert.IsType<ClaimsIdentity>(principal.Identity, exactMatch: false);
        var scope = principal.FindFirst(FileTransferClaims.Scope)!;

        Assert.Throws<InvalidOperationException>(() => identity.AddClaim(new Claim(FileTransferClaims.Scope, "write")));
        Assert.Throws<InvalidOperationException>(() => identity.AddClaims([new Claim(FileTransferClaims.Scope, "write")]));
        Assert.Throws<InvalidOperationException>(() => identity.RemoveClaim(scope));
        Assert.Throws<InvalidOperationException>(() => identity.TryRemoveClaim(scope));
        Assert.Throws<InvalidOperationException>(() => principal.AddIdentity(new ClaimsIdentity([new Claim(FileTransferClaims.Scope, "write")], "x")));
        Assert.Throws<InvalidOperationException>(() => principal.AddIdentities([new ClaimsIdentity()]));

        // Still only 'read', for this and every later request with the key.
        Assert.False(principal.HasClaim(FileTransferClaims.Scope, "write"));
        Assert.True(identity.IsAuthenticated);
        Assert.Equal("ApiKey", identity.AuthenticationType);
        using var client = factory.ClientWith(SecurityFactory.ReadKey);
        using var response = await client.PutAsync("/api/files/probe/x.bin", new ByteArrayContent([1]), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
    }

    [Fact]
    public void Looking_Up_A_Known_Key_Allocates_Nothing()
    {
        var store = factory.Services.GetRequiredService<ApiKeyStore>();
        var header = "Bearer " + SecurityFactory.ReadKey;
        Assert.True(BearerCredentials.TryGet(header, out var warm));
        Assert.NotNull(store.Lookup(warm));

        var before = GC.GetAllocatedBytesForCurrentThread();
        BearerCredentials.TryGet(header, out var presented);
        var shaped = BearerCredentials.IsJwtShaped(presented);
        var entry = store.Lookup(presented);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.False(shaped);
        Assert.Same(store.Find(SecurityFactory.ReadKey), entry!.Result);
        Assert.Equal(0, allocated);
    }

    [Fact]
    public async Task A_Key_Is_Served_Without_Token_Validation_Even_When_The_Provider_Is_Unreachable()
    {
        using var server = new SecurityFactory();
        server.With("Auth:Jwt:Authority", "http://127.0.0.1:9/realms/none").With("Auth:Jwt:Audience", "files").With("Auth:Jwt:RequireHttpsMetadata", "false");
        server.Storage.Write("k.txt", [5]);
        using var keyed = server.ClientWith(SecurityFactory.ReadKey);

        Assert.Equal([5], await keyed.GetByteArrayAsync("/api/files/k.txt", TestTimeout.Token));
    }

    [Fact]
    public async Task A_Refused_Key_Gets_A_Fresh_Failure_And_No_Principal()
    {
        var store = factory.Services.GetRequiredService<ApiKeyStore>();

        Assert.Null(store.Find(SecurityFactory.ReadKey + "x"));
        Assert.Null(store.Find(""));
        using var client = factory.ClientWith(SecurityFactory.ReadKey + "x");
        using var response = await client.GetAsync("/api/files/probe-principal/a.bin?probe=refused", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.False(ScopeProbeEndpoints.Principals.ContainsKey("refused"));
    }
}
