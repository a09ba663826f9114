using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Security.Oidc;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Deployment;

/// <summary>The OpenID Connect provider (glewlwyd) the shipped-server token tests share, with one client that may ask for every scope.</summary>
public sealed class ShippedOidcProvider : IAsyncLifetime
{
    public const string Client = "alice";
    public const string Secret = "alice-secret-0000";

    public GlewlwydProvider Provider { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Provider = await GlewlwydProvider.StartAsync();
        await Provider.CreateClientAsync(Client, Secret, "files:read", "files:write", "files:delete");
    }

    public async Task DisposeAsync()
    {
        if (Provider is not null)
        {
            await Provider.DisposeAsync();
        }
    }
}

/// <summary>
/// The shipped server (the Release dll and the Native AOT executable, <see cref="NativeServer"/>) taking
/// tokens from a real OpenID Connect provider (<c>Auth:Jwt</c> from the environment, the discovery
/// document and keys fetched over HTTP): each scope grants its own REST operations and no other, on
/// gRPC too, and a token that is expired, signed with another key, altered or no JWT at all is
/// 401 / UNAUTHENTICATED with the reason in words.
/// </summary>
public sealed class ShippedOidcTests(ShippedOidcProvider fixture) : IClassFixture<ShippedOidcProvider>, IDisposable
{
    private readonly TempStorage _storage = new();

    private GlewlwydProvider Provider => fixture.Provider;


    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task Each_Scope_Of_A_Providers_Token_Grants_Its_Own_Operations(bool native)
    {
        await using var server = await StartAsync(native);
        using var writer = Rest(server, await Provider.TokenAsync(ShippedOidcProvider.Client, ShippedOidcProvider.Secret, "files:write"));
        using var reader = Rest(server, await Provider.TokenAsync(ShippedOidcProvider.Client, ShippedOidcProvider.Secret, "files:read"));
        using var deleter = Rest(server, await Provider.TokenAsync(ShippedOidcProvider.Client, ShippedOidcProvider.Secret, "files:delete"));
        var bytes = RandomNumberGenerator.GetBytes(100_003);

        using var put = await writer.PutAsync("/api/files/users/alice/a.bin", new ByteArrayContent(bytes), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        await AssertReasonAsync(await writer.GetAsync("/api/files/users/alice/a.bin", TestTimeout.Token), HttpStatusCode.Forbidden, "PERMISSION_DENIED");
        await AssertReasonAsync(await writer.PutAsync("/api/files/users/bob/a.bin", new ByteArrayContent(bytes), TestTimeout.Token), HttpStatusCode.Forbidden, "PERMISSION_DENIED");

        Assert.Equal(SHA256.HashData(bytes), SHA256.HashData(await reader.GetByteArrayAsync("/api/files/users/alice/a.bin", TestTimeout.Token)));
        Assert.Contains("users/alice/a.bin", await reader.GetStringAsync("/api/files", TestTimeout.Token), StringComparison.Ordinal);
        var readOnly = await AssertReasonAsync(await reader.PutAsync("/api/files/users/alice/a.bin", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Forbidden, "PERMISSION_DENIED");
        Assert.Contains("'write' scope", readOnly.GetProperty("detail").GetString(), StringComparison.Ordinal);
        await AssertReasonAsync(await reader.DeleteAsync("/api/files/users/alice/a.bin", TestTimeout.Token), HttpStatusCode.Forbidden, "PERMISSION_DENIED");

        using var channel = GrpcClients.Channel(server.Http2, await Provider.TokenAsync(ShippedOidcProvider.Client, ShippedOidcProvider.Secret, "files:read"));
        var download = await GrpcTransfers.DownloadAsync(new FileService.FileServiceClient(channel), "users/alice/a.bin", TestTimeout.Token);
        Assert.Equal(SHA256.HashData(bytes), download.Metadata.Sha256.ToByteArray());

        using var deleted = await deleter.DeleteAsync("/api/files/users/alice/a.bin", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Empty(_storage.VisibleFiles());
    }

    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task A_Bad_Or_Expired_Token_Is_Unauthenticated_With_Its_Reason(bool native)
    {
        await using var server = await StartAsync(native);
        var kid = await Provider.KeyIdAsync();
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        using var otherKey = RSA.Create(2048);
        var genuine = (await Provider.TokenAsync(ShippedOidcProvider.Client, ShippedOidcProvider.Secret, "files:read")).Split('.');
        (string Token, string Detail)[] refused =
        [
            (Provider.Sign(Header(kid), Claims(now - 7200, now - 3600)), "The token has expired."),
            (Provider.Sign(Header(kid), Claims(now, now + 600), otherKey), "The token's signature does not verify."),
            // A real token of the provider with its payload replaced: read made read, write and delete.
            (genuine[0] + "." + GlewlwydProvider.Encode(Claims(now, now + 600)) + "." + genuine[2], "The token's signature does not verify."),
            // Shaped like a JWT ({"alg":"RS256"}), but its payload is no JSON.
            ("eyJhbGciOiJSUzI1NiJ9.bm90LWpzb24.c2ln", "The token is not valid."),
        ];

        foreach (var (token, detail) in refused)
        {
            using var rest = Rest(server, token);
            var response = await rest.GetAsync("/api/files", TestTimeout.Token);
            Assert.Contains("invalid_token", response.Headers.WwwAuthenticate.ToString(), StringComparison.Ordinal);
            var problem = await AssertReasonAsync(response, HttpStatusCode.Unauthorized, "UNAUTHENTICATED");
            Assert.Equal(detail, problem.GetProperty("detail").GetString());
        }

        using var channel = GrpcClients.Channel(server.Http2, refused[0].Token);
        var call = new FileService.FileServiceClient(channel).ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);
        Assert.Equal(StatusCode.Unauthenticated, (await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync)).StatusCode);
    }

    public void Dispose() => _storage.Dispose();

    private async Task<ServerProcess> StartAsync(bool native) => await ServerProcess.StartAsync(
        new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Production",
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__Jwt__Authority"] = Provider.Authority,
            ["Auth__Jwt__Audience"] = GlewlwydProvider.Audience,
            ["Auth__Jwt__RequireHttpsMetadata"] = "false",
            ["Auth__Jwt__ScopePrefix"] = "files:",
            ["Auth__Jwt__DefaultPaths__0"] = "users/{sub}/",
        },
        new ServerProcessOptions { Executable = native ? await NativeServer.PathAsync() : null });

    private static HttpClient Rest(ServerProcess server, string token) => new()
    {
        BaseAddress = server.Http1,
        DefaultRequestHeaders = { Authorization = new AuthenticationHeaderValue("Bearer", token) },
    };

    private static object Header(string kid) => new { alg = "RS256", typ = "at+jwt", kid };

    // What the provider issues to the client, but for the lifetime, with every scope.
    private Dictionary<string, object> Claims(long notBefore, long expires) => new()
    {
        ["iss"] = Provider.Authority,
        ["aud"] = GlewlwydProvider.Audience,
        ["sub"] = ShippedOidcProvider.Client,
        ["client_id"] = ShippedOidcProvider.Client,
        ["scope"] = "files:read files:write files:delete",
        ["iat"] = notBefore,
        ["nbf"] = notBefore,
        ["exp"] = expires,
    };

    private static async Task<System.Text.Json.JsonElement> AssertReasonAsync(HttpResponseMessage response, HttpStatusCode status, string reason)
    {
        using (response)
        {
            var problem = await Problems.AssertAsync(response, status);
            Assert.Equal(reason, problem.GetProperty("reason").GetString());
            return problem;
        }
    }
}
