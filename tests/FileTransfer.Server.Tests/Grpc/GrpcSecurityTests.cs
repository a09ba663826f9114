using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Security;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>The same keys, scopes and limits as REST, answered with gRPC status codes.</summary>
public sealed class GrpcSecurityTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    public GrpcSecurityTests()
    {
        _server.With("Auth:ApiKeys:1:Key", SecurityFactory.ReadKey).With("Auth:ApiKeys:1:Scopes:0", "read")
            .With("Auth:ApiKeys:2:Key", SecurityFactory.WriteKey).With("Auth:ApiKeys:2:Scopes:0", "write")
            .With("Auth:ApiKeys:3:Key", SecurityFactory.DeleteKey).With("Auth:ApiKeys:3:Scopes:0", "delete");
        _server.Storage.WriteRandom("guarded.bin", 100);
    }

    public static TheoryData<string, string, StatusCode> KeysAndCalls => new()
    {
        { SecurityFactory.ReadKey, "download", StatusCode.OK },
        { SecurityFactory.ReadKey, "info", StatusCode.OK },
        { SecurityFactory.ReadKey, "list", StatusCode.OK },
        { SecurityFactory.ReadKey, "upload", StatusCode.PermissionDenied },
        { SecurityFactory.ReadKey, "delete", StatusCode.PermissionDenied },
        { SecurityFactory.WriteKey, "upload", StatusCode.OK },
        { SecurityFactory.WriteKey, "download", StatusCode.PermissionDenied },
        { SecurityFactory.WriteKey, "list", StatusCode.PermissionDenied },
        { SecurityFactory.WriteKey, "delete", StatusCode.PermissionDenied },
        { SecurityFactory.DeleteKey, "delete", StatusCode.OK },
        { SecurityFactory.DeleteKey, "info", StatusCode.PermissionDenied },
        { SecurityFactory.DeleteKey, "upload", StatusCode.PermissionDenied },
        { "not-a-configured-key-0123456789", "info", StatusCode.Unauthenticated },
    };

    [Theory]
    [MemberData(nameof(KeysAndCalls))]
    public async Task Each_Rpc_Needs_The_Scope_Rest_Needs_For_The_Same_Operation(string key, string call, StatusCode expected)
    {
        var client = GrpcClients.For(_server, key);

        var status = await StatusOfAsync(() => Call(client, call));

        Assert.Equal(expected, status);
        if (call == "upload" && expected != StatusCode.OK)
        {
            Assert.Equal(["guarded.bin"], _server.Storage.VisibleFiles());
        }
    }

    [Fact]
    public async Task No_Key_Is_Unauthenticated_With_A_Reason_And_A_Clean_Message()
    {
        var error = await Assert.ThrowsAsync<RpcException>(() => Call(GrpcClients.For(_server, apiKey: null), "info"));

        Assert.Equal(StatusCode.Unauthenticated, error.StatusCode);
        Assert.Equal("UNAUTHENTICATED", GrpcAssert.Reason(error));
        Assert.Equal("Send an API key in the call metadata as 'authorization: Bearer <key>' or 'x-api-key: <key>'.", error.Status.Detail);
        GrpcAssert.IsClean(error, _server.Storage.RootPath);
    }

    [Fact]
    public async Task The_Key_Is_Also_Accepted_In_X_Api_Key_Metadata()
    {
        var client = GrpcClients.For(_server, apiKey: null);

        var info = await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "guarded.bin" }, new Metadata { { "x-api-key", SecurityFactory.ReadKey } }, cancellationToken: TestTimeout.Token);

        Assert.Equal(100, info.Size);
    }

    [Fact]
    public async Task Anonymous_Reads_When_Allowed_Cover_Grpc_Reads_But_Never_Writes()
    {
        _server.With("Auth:AllowAnonymousRead", "true");
        var anonymous = GrpcClients.For(_server, apiKey: null);

        var info = await anonymous.GetFileInfoAsync(new GetFileInfoRequest { FileName = "guarded.bin" }, cancellationToken: TestTimeout.Token);
        var upload = await StatusOfAsync(() => Call(anonymous, "upload"));
        var delete = await StatusOfAsync(() => Call(anonymous, "delete"));

        Assert.Equal(100, info.Size);
        Assert.Equal(StatusCode.Unauthenticated, upload);
        Assert.Equal(StatusCode.Unauthenticated, delete);
    }

    [Fact]
    public async Task A_Rate_Limited_Call_Is_Resource_Exhausted_With_Retry_Pushback()
    {
        _server.With("RateLimit:PermitsPerSecond", "1").With("RateLimit:Burst", "2");
        var client = GrpcClients.For(_server, SecurityFactory.ReadKey);

        RpcException? limited = null;
        for (var i = 0; i < 10 && limited is null; i++)
        {
            try
            {
                await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "guarded.bin" }, cancellationToken: TestTimeout.Token);
            }
            catch (RpcException ex)
            {
                limited = ex;
            }
        }

        Assert.NotNull(limited);
        Assert.Equal(StatusCode.ResourceExhausted, limited.StatusCode);
        Assert.Equal("RATE_LIMITED", GrpcAssert.Reason(limited));
        var pushback = limited.Trailers.GetValue("grpc-retry-pushback-ms");
        Assert.InRange(long.Parse(pushback!, System.Globalization.CultureInfo.InvariantCulture), 1000, 2000);
        Assert.Equal(TimeSpan.FromMilliseconds(long.Parse(pushback!, System.Globalization.CultureInfo.InvariantCulture)), limited.GetRpcStatus()!.GetDetail<Google.Rpc.RetryInfo>()!.RetryDelay.ToTimeSpan());
    }

    [Fact]
    public async Task A_Running_Grpc_Download_Holds_A_Concurrency_Slot_Shared_With_Rest()
    {
        _server.With("RateLimit:ConcurrentTransfers", "1");
        _server.Storage.WriteRandom("big.bin", 32 * 1024 * 1024);
        var client = GrpcClients.For(_server);
        using var download = client.DownloadFile(new DownloadFileRequest { FileName = "big.bin" }, cancellationToken: TestTimeout.Token);
        Assert.True(await download.ResponseStream.MoveNext(TestTimeout.Token));
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), System.Net.HttpVersion.Version11);

        var second = await StatusOfAsync(() => Call(client, "info"));
        using var rest = await http.GetAsync("/api/files", TestTimeout.Token);
        using var health = await http.GetAsync("/healthz", TestTimeout.Token);

        Assert.Equal(StatusCode.ResourceExhausted, second);
        Assert.Equal(System.Net.HttpStatusCode.TooManyRequests, rest.StatusCode);
        Assert.Equal(System.Net.HttpStatusCode.OK, health.StatusCode);
    }

    private static async Task Call(FileService.FileServiceClient client, string call)
    {
        switch (call)
        {
            case "download":
                await GrpcTransfers.DownloadAsync(client, "guarded.bin", TestTimeout.Token);
                break;
            case "info":
                await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "guarded.bin" }, cancellationToken: TestTimeout.Token);
                break;
            case "list":
                await client.ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);
                break;
            case "upload":
                await GrpcTransfers.UploadAsync(client, "uploaded.bin", [1, 2, 3], 1024, TestTimeout.Token);
                break;
            case "delete":
                await client.DeleteFileAsync(new DeleteFileRequest { FileName = "guarded.bin" }, cancellationToken: TestTimeout.Token);
                break;
        }
    }

    private static async Task<StatusCode> StatusOfAsync(Func<Task> call)
    {
        try
        {
            await call();
            return StatusCode.OK;
        }
        catch (RpcException ex)
        {
            return ex.StatusCode;
        }
    }

    public void Dispose() => _server.Dispose();
}
