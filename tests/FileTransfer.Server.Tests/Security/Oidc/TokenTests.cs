using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security.Oidc;

/// <summary>The provider and the server, started once for the token tests.</summary>
public sealed class TokenServer : IAsyncLifetime
{
    public const string Secret = "alice-secret-0000";

    public GlewlwydProvider Provider { get; private set; } = null!;

    public KestrelFactory Server { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Provider = await GlewlwydProvider.StartAsync();
        await Provider.CreateClientAsync("alice", Secret, "files:read", "files:write");
        await Provider.CreateClientAsync("reader", Secret, "files:read");
        Server = new KestrelFactory();
        Server.With("Auth:Jwt:Authority", Provider.Authority)
            .With("Auth:Jwt:Audience", GlewlwydProvider.Audience)
            .With("Auth:Jwt:RequireHttpsMetadata", "false")
            .With("Auth:Jwt:ScopePrefix", "files:")
            .With("Auth:Jwt:DefaultPaths:0", "users/{sub}/");
    }

    public async Task DisposeAsync()
    {
        await Server.DisposeAsync();
        await Provider.DisposeAsync();
    }
}

/// <summary>
/// Tokens from a real OpenID Connect provider (glewlwyd, client-credentials) on both protocols:
/// scopes from <c>scope</c>, folders from <c>Auth:Jwt:DefaultPaths</c> with <c>{sub}</c> or the paths
/// claim; every hostile token refused with 401 / UNAUTHENTICATED; a key rotation at the provider
/// picked up without a restart.
/// </summary>
public sealed class TokenTests(TokenServer fixture) : IClassFixture<TokenServer>
{
    private GlewlwydProvider Provider => fixture.Provider;

    [Fact]
    public async Task A_Providers_Token_Reaches_Its_Own_Folder_On_Rest_And_Grpc_And_Nothing_Beside_It()
    {
        var token = await Provider.TokenAsync("alice", TokenServer.Secret, "files:read files:write");
        using var rest = Rest(token);
        fixture.Server.Storage.Write("users/bob/secret.txt", [9]);

        Assert.Equal(HttpStatusCode.Created, (await rest.PutAsync("/api/files/users/alice/a.txt", new ByteArrayContent([1, 2, 3]), TestTimeout.Token)).StatusCode);
        Assert.Equal([1, 2, 3], await rest.GetByteArrayAsync("/api/files/users/alice/a.txt", TestTimeout.Token));
        await Problems.AssertAsync(await rest.GetAsync("/api/files/users/bob/secret.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        await Problems.AssertAsync(await rest.GetAsync("/api/files/users/bob/missing.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        await Problems.AssertAsync(await rest.DeleteAsync("/api/files/users/alice/a.txt", TestTimeout.Token), HttpStatusCode.Forbidden);
        var listed = await rest.GetStringAsync("/api/files", TestTimeout.Token);
        Assert.Contains("users/alice/a.txt", listed, StringComparison.Ordinal);
        Assert.DoesNotContain("bob", listed, StringComparison.Ordinal);

        var grpc = Grpc(token);
        var upload = grpc.UploadFile(cancellationToken: TestTimeout.Token);
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "users/alice/g.bin", Overwrite = true } }, TestTimeout.Token);
        await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(7, 8) }, TestTimeout.Token);
        await upload.RequestStream.CompleteAsync();
        Assert.True((await upload).Created);
        var page = await grpc.ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);
        Assert.All(page.Files, file => Assert.StartsWith("users/alice/", file.FileName, StringComparison.Ordinal));
        var refused = await Assert.ThrowsAsync<RpcException>(() => grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = "users/bob/secret.txt" }, cancellationToken: TestTimeout.Token).ResponseAsync);
        Assert.Equal(StatusCode.PermissionDenied, refused.StatusCode);
    }

    [Fact]
    public async Task A_Token_Without_The_Write_Scope_Cannot_Write_Even_In_Its_Folder()
    {
        var token = await Provider.TokenAsync("reader", TokenServer.Secret, "files:read");
        using var rest = Rest(token);

        var problem = await Problems.AssertAsync(await rest.PutAsync("/api/files/users/reader/a.txt", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Forbidden);
        Assert.Contains("'write' scope", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_Paths_Claim_As_An_Array_Or_A_String_Decides_The_Folders()
    {
        var kid = await Provider.KeyIdAsync();
        foreach (object paths in new object[] { new[] { "teams/x/", "teams/y" }, "teams/x/ teams/y" })
        {
            var token = Provider.Sign(Header(kid), Claims(new { paths }));
            using var rest = Rest(token);

            Assert.Equal(HttpStatusCode.Created, (await rest.PutAsync($"/api/files/teams/y/{Guid.NewGuid():N}", new ByteArrayContent([1]), TestTimeout.Token)).StatusCode);
            await Problems.AssertAsync(await rest.PutAsync("/api/files/users/alice/z.txt", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Forbidden);
        }
    }

    public static TheoryData<string> Hostile => ["expired", "not-yet-valid", "wrong-issuer", "wrong-audience", "alg-none", "wrong-key", "tampered"];

    [Theory]
    [MemberData(nameof(Hostile))]
    public async Task A_Hostile_Token_Is_Unauthenticated_On_Rest_And_Grpc(string kind)
    {
        var token = await HostileAsync(kind);
        using var rest = Rest(token);

        var response = await rest.GetAsync("/api/files", TestTimeout.Token);
        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Contains("invalid_token", response.Headers.WwwAuthenticate.ToString(), StringComparison.Ordinal);
        var refused = await Assert.ThrowsAsync<RpcException>(() => Grpc(token).ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token).ResponseAsync);
        Assert.Equal(StatusCode.Unauthenticated, refused.StatusCode);
    }

    [Fact]
    public async Task A_Key_Rotation_At_The_Provider_Is_Picked_Up_Without_A_Restart()
    {
        using (var before = Rest(await Provider.TokenAsync("alice", TokenServer.Secret, "files:read")))
        {
            Assert.Equal(HttpStatusCode.OK, (await before.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        }

        var oldKid = await Provider.KeyIdAsync();
        await Provider.RotateKeyAsync();
        Assert.NotEqual(oldKid, await Provider.KeyIdAsync());

        using var after = Rest(await Provider.TokenAsync("alice", TokenServer.Secret, "files:read"));
        Assert.Equal(HttpStatusCode.OK, (await after.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
    }

    private async Task<string> HostileAsync(string kind)
    {
        var kid = await Provider.KeyIdAsync();
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        using var otherKey = System.Security.Cryptography.RSA.Create(2048);
        switch (kind)
        {
            case "expired": return Provider.Sign(Header(kid), Claims(new { iat = now - 7200, nbf = now - 7200, exp = now - 3600 }));
            case "not-yet-valid": return Provider.Sign(Header(kid), Claims(new { nbf = now + 3600, exp = now + 7200 }));
            case "wrong-issuer": return Provider.Sign(Header(kid), Claims(new { iss = "http://127.0.0.1:1/api/oidc" }));
            case "wrong-audience": return Provider.Sign(Header(kid), Claims(new { aud = "https://other.test" }));
            case "wrong-key": return Provider.Sign(Header(kid), Claims(), otherKey);
            case "alg-none": return GlewlwydProvider.Encode(new { alg = "none", typ = "JWT" }) + "." + GlewlwydProvider.Encode(Claims()) + ".";
            default:
                // A real token of the provider with its payload changed: read-only scope made read-write.
                var parts = (await Provider.TokenAsync("reader", TokenServer.Secret, "files:read")).Split('.');
                var payload = System.Text.Encoding.UTF8.GetString(System.Buffers.Text.Base64Url.DecodeFromChars(parts[1])).Replace("files:read", "files:read files:write", StringComparison.Ordinal);
                return parts[0] + "." + System.Buffers.Text.Base64Url.EncodeToString(System.Text.Encoding.UTF8.GetBytes(payload)) + "." + parts[2];
        }
    }

    private static object Header(string kid) => new { alg = "RS256", typ = "at+jwt", kid };

    // A valid token's claims, as the provider would issue them, with some replaced.
    private Dictionary<string, object> Claims(object? replace = null)
    {
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var claims = new Dictionary<string, object>
        {
            ["iss"] = Provider.Authority,
            ["aud"] = GlewlwydProvider.Audience,
            ["sub"] = "alice",
            ["client_id"] = "alice",
            ["scope"] = "files:read files:write",
            ["iat"] = now,
            ["nbf"] = now,
            ["exp"] = now + 600,
        };
        foreach (var property in replace?.GetType().GetProperties() ?? [])
        {
            claims[property.Name] = property.GetValue(replace)!;
        }

        return claims;
    }

    private HttpClient Rest(string token)
    {
        var client = KestrelFactory.ClientFor(fixture.Server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    private FileService.FileServiceClient Grpc(string token) => new(GrpcClients.Channel(fixture.Server.AddressOf(HttpProtocols.Http2), token));
}
