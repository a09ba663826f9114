using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Health.V1;
using Grpc.Reflection.V1Alpha;

namespace FileTransfer.Server.Tests.Deployment;

/// <summary>
/// The server as an operator runs it, in its own process in the Production environment: the Release
/// build's dll, and the Native AOT executable the container image ships (<see cref="NativeServer"/>).
/// Both keep every byte over REST (HTTP/1.1, h2c) and gRPC, answer refusals as problems with their
/// reasons (a parameter or JSON body that cannot be read included, which the framework would answer
/// with a bare 400 outside Development), and describe themselves alike.
/// </summary>
public sealed class ShippedServerTests : IDisposable
{
    private readonly TempStorage _storage = new();


    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task Rest_Uploads_Downloads_Lists_Forms_Links_And_Deletes_Keep_Every_Byte(bool native)
    {
        await using var server = await StartAsync(native);
        using var client = Client(server.Http1);
        using var h2 = Client(server.Http2, HttpVersion.Version20);
        var bytes = RandomNumberGenerator.GetBytes((1 << 20) + 1);

        using var put = await client.PutAsync("/api/files/shipped/a.bin", new ByteArrayContent(bytes), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(GrpcTransfers.Sha256Hex(bytes), (await JsonAsync(put)).GetProperty("sha256").GetString(), StringComparer.OrdinalIgnoreCase);
        Assert.Equal(bytes, await client.GetByteArrayAsync("/api/files/shipped/a.bin", TestTimeout.Token));
        Assert.Equal(bytes, await h2.GetByteArrayAsync("/api/files/shipped/a.bin", TestTimeout.Token));

        using var form = new MultipartFormDataContent { { new ByteArrayContent(bytes[..1000]), "file", "b.bin" }, { new ByteArrayContent(bytes[..10]), "file", "c.bin" } };
        using var posted = await client.PostAsync("/api/files?folder=shipped", form, TestTimeout.Token);
        Assert.Equal(HttpStatusCode.Created, posted.StatusCode);
        Assert.Equal(["shipped/b.bin", "shipped/c.bin"], (await JsonAsync(posted)).EnumerateArray().Select(f => f.GetProperty("name").GetString()));

        using var listed = await client.GetAsync("/api/files?prefix=shipped/&pageSize=2", TestTimeout.Token);
        Assert.Equal(["shipped/a.bin", "shipped/b.bin"], (await JsonAsync(listed)).EnumerateArray().Select(f => f.GetProperty("name").GetString()));
        Assert.NotNull(listed.Headers.GetValues("Link").Single());

        using var issued = await client.PostAsync("/api/links", Json("""{"path":"shipped/a.bin","access":"read"}"""), TestTimeout.Token);
        var url = (await JsonAsync(issued)).GetProperty("url").GetString()!;
        using var anonymous = new HttpClient();
        Assert.Equal(bytes, await anonymous.GetByteArrayAsync(url, TestTimeout.Token));

        // What the benchmark reads around each run.
        using var runtime = await client.GetAsync("/debug/runtime", TestTimeout.Token);
        Assert.True((await JsonAsync(runtime)).GetProperty("totalAllocatedBytes").GetInt64() > 0);

        using var deleted = await client.DeleteAsync("/api/files/shipped/a.bin", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.False(File.Exists(Path.Combine(_storage.RootPath, "shipped", "a.bin")));
    }

    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task Refusals_Are_Problems_With_Their_Reasons(bool native)
    {
        await using var server = await StartAsync(native);
        using var client = Client(server.Http1);

        await AssertReasonAsync(await client.GetAsync("/api/files?pageSize=many", TestTimeout.Token), HttpStatusCode.BadRequest, "MALFORMED_MESSAGE");
        await AssertReasonAsync(await client.PostAsync("/api/links", Json("""{"path":"a.bin","""), TestTimeout.Token), HttpStatusCode.BadRequest, "MALFORMED_MESSAGE");
        var invalid = await AssertReasonAsync(await client.PostAsync("/api/links", Json("""{"path":"a.bin","access":"delete"}"""), TestTimeout.Token), HttpStatusCode.BadRequest, "MALFORMED_MESSAGE");
        Assert.Equal("Access must be 'read' or 'write'.", invalid.GetProperty("errors").GetProperty("Access")[0].GetString());
        await AssertReasonAsync(await client.PostAsync("/api/links", new StringContent("x"), TestTimeout.Token), HttpStatusCode.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE");
        await AssertReasonAsync(await client.GetAsync("/api/files/missing.bin", TestTimeout.Token), HttpStatusCode.NotFound, "FILE_NOT_FOUND");
        using var nobody = new HttpClient { BaseAddress = server.Http1 };
        await AssertReasonAsync(await nobody.GetAsync("/api/files", TestTimeout.Token), HttpStatusCode.Unauthorized, "UNAUTHENTICATED");
    }

    [Fact]
    public async Task A_Parameter_That_Does_Not_Bind_Is_Malformed_In_Development_Too()
    {
        // The framework throws on a parameter that does not bind in Development only; the answer is the same.
        await using var server = await StartAsync(native: false, environment: "Development");
        using var client = Client(server.Http1);

        await AssertReasonAsync(await client.GetAsync("/api/files?pageSize=many", TestTimeout.Token), HttpStatusCode.BadRequest, "MALFORMED_MESSAGE");
        await AssertReasonAsync(await client.DeleteAsync("/api/files/", TestTimeout.Token), HttpStatusCode.BadRequest, "MALFORMED_MESSAGE");
    }

    [Theory]
    [MemberData(nameof(ShippedBuilds.Both), MemberType = typeof(ShippedBuilds))]
    public async Task Grpc_Keeps_Every_Byte_And_Reflection_And_Health_Answer(bool native)
    {
        await using var server = await StartAsync(native);
        using var channel = GrpcClients.Channel(server.Http2);
        var files = new FileService.FileServiceClient(channel);
        var bytes = RandomNumberGenerator.GetBytes((3 << 15) + 7);

        var uploaded = await GrpcTransfers.UploadAsync(files, "shipped/g.bin", bytes, 32 * 1024, TestTimeout.Token);
        var download = await GrpcTransfers.DownloadAsync(files, "shipped/g.bin", TestTimeout.Token);

        Assert.True(uploaded.Created);
        Assert.Equal(bytes, download.Bytes);
        Assert.Equal(SHA256.HashData(bytes), download.Metadata.Sha256.ToByteArray());
        Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, (await new Health.HealthClient(channel).CheckAsync(new HealthCheckRequest(), cancellationToken: TestTimeout.Token)).Status);

        using var reflection = new ServerReflection.ServerReflectionClient(channel).ServerReflectionInfo(cancellationToken: TestTimeout.Token);
        await reflection.RequestStream.WriteAsync(new ServerReflectionRequest { ListServices = "" }, TestTimeout.Token);
        await reflection.RequestStream.CompleteAsync();
        Assert.True(await reflection.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.Contains("filetransfer.v1.FileService", reflection.ResponseStream.Current.ListServicesResponse.Service.Select(s => s.Name));
    }

    [Fact]
    public async Task The_Native_Server_Describes_Itself_As_The_Dll_Does()
    {
        await using var dll = await StartAsync(native: false);
        await using var native = await StartAsync(native: true);

        Assert.Equal(await OpenApiAsync(dll), await OpenApiAsync(native));
    }

    public void Dispose() => _storage.Dispose();

    private async Task<ServerProcess> StartAsync(bool native, string environment = "Production") => await ServerProcess.StartAsync(
        new Dictionary<string, string>
        {
            ["ASPNETCORE_ENVIRONMENT"] = environment,
            ["Storage__RootPath"] = _storage.RootPath,
            ["Auth__ApiKeys__0__Key"] = FileTransferFactory.TestKey,
            ["Auth__ApiKeys__0__Scopes__0"] = "read",
            ["Auth__ApiKeys__0__Scopes__1"] = "write",
            ["Auth__ApiKeys__0__Scopes__2"] = "delete",
            ["Diagnostics__EnableRuntimeEndpoint"] = "true",
        },
        new ServerProcessOptions { Executable = native ? await NativeServer.PathAsync() : null });

    private static HttpClient Client(Uri address, Version? version = null) => new()
    {
        BaseAddress = address,
        DefaultRequestVersion = version ?? HttpVersion.Version11,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        DefaultRequestHeaders = { Authorization = new AuthenticationHeaderValue("Bearer", FileTransferFactory.TestKey) },
    };

    private static StringContent Json(string json) => new(json, Encoding.UTF8, "application/json");

    private static async Task<JsonElement> JsonAsync(HttpResponseMessage response)
    {
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync(TestTimeout.Token));
        return document.RootElement.Clone();
    }

    private static async Task<JsonElement> AssertReasonAsync(HttpResponseMessage response, HttpStatusCode status, string reason)
    {
        using (response)
        {
            var problem = await Problems.AssertAsync(response, status);
            Assert.Equal(reason, problem.GetProperty("reason").GetString());
            return problem;
        }
    }

    // The document without its servers (each process's own address).
    private static async Task<string> OpenApiAsync(ServerProcess server)
    {
        using var client = new HttpClient { BaseAddress = server.Http1 };
        var document = System.Text.Json.Nodes.JsonNode.Parse(await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token))!.AsObject();
        document.Remove("servers");
        return document.ToJsonString();
    }
}
