using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Health.V1;
using Grpc.Reflection.V1Alpha;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>Where gRPC is served, and the public reflection and health services beside FileService.</summary>
public sealed class GrpcServiceSurfaceTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Fact]
    public async Task Reflection_Lists_FileService_Without_A_Key()
    {
        using var channel = GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http2), apiKey: null);
        using var call = new ServerReflection.ServerReflectionClient(channel).ServerReflectionInfo(cancellationToken: TestTimeout.Token);

        await call.RequestStream.WriteAsync(new ServerReflectionRequest { ListServices = "" }, TestTimeout.Token);
        await call.RequestStream.CompleteAsync();
        Assert.True(await call.ResponseStream.MoveNext(TestTimeout.Token));

        var services = call.ResponseStream.Current.ListServicesResponse.Service.Select(s => s.Name).ToList();
        Assert.Contains("filetransfer.v1.FileService", services);
        Assert.Contains("grpc.health.v1.Health", services);
        Assert.Contains("grpc.reflection.v1.ServerReflection", services);
        Assert.Contains("grpc.reflection.v1alpha.ServerReflection", services);
    }

    [Fact]
    public async Task Health_Reports_Serving_Without_A_Key_And_Not_Serving_When_The_Root_Is_Gone()
    {
        using var channel = GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http2), apiKey: null);
        var health = new Health.HealthClient(channel);

        var serving = await health.CheckAsync(new HealthCheckRequest(), cancellationToken: TestTimeout.Token);
        Directory.Delete(_server.Storage.RootPath, recursive: true);
        var gone = await health.CheckAsync(new HealthCheckRequest(), cancellationToken: TestTimeout.Token);
        Directory.CreateDirectory(_server.Storage.RootPath);

        Assert.Equal(HealthCheckResponse.Types.ServingStatus.Serving, serving.Status);
        Assert.Equal(HealthCheckResponse.Types.ServingStatus.NotServing, gone.Status);
    }

    [Fact]
    public async Task A_Grpc_Call_On_The_Http1_Only_Endpoint_Fails_Fast_Instead_Of_Hanging()
    {
        var client = new FileService.FileServiceClient(GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http1)));
        var started = DateTime.UtcNow;

        var error = await Assert.ThrowsAsync<RpcException>(async () =>
            await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "x" }, deadline: DateTime.UtcNow.AddSeconds(30), cancellationToken: TestTimeout.Token));

        Assert.NotEqual(StatusCode.DeadlineExceeded, error.StatusCode);
        Assert.True(DateTime.UtcNow - started < TimeSpan.FromSeconds(10), $"took {DateTime.UtcNow - started}");
    }

    [Fact]
    public async Task A_Grpc_Request_Over_Http11_Gets_The_Framework_Refusal()
    {
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), System.Net.HttpVersion.Version11);
        using var request = new HttpRequestMessage(HttpMethod.Post, "/filetransfer.v1.FileService/GetFileInfo")
        {
            Content = new ByteArrayContent([0, 0, 0, 0, 0]),
        };
        request.Content.Headers.ContentType = new("application/grpc");

        using var response = await http.SendAsync(request, TestTimeout.Token);

        // Grpc.AspNetCore: 426 Upgrade Required, "Request protocol 'HTTP/1.1' is not supported."
        Assert.Equal(System.Net.HttpStatusCode.UpgradeRequired, response.StatusCode);
    }

    [Theory]
    [InlineData("filetransfer.v1.FileService", "RenameFile")]
    [InlineData("filetransfer.v2.FileService", "DownloadFile")]
    public async Task An_Unknown_Method_Or_Service_Is_Unimplemented(string service, string method)
    {
        using var channel = GrpcClients.Channel(_server.AddressOf(HttpProtocols.Http2));
        var unknown = new Method<GetFileInfoRequest, FileMetadata>(MethodType.Unary, service, method, Marshallers.Create(r => r.ToByteArray(), GetFileInfoRequest.Parser.ParseFrom), Marshallers.Create(r => r.ToByteArray(), FileMetadata.Parser.ParseFrom));

        var error = await Assert.ThrowsAsync<RpcException>(async () => await channel.CreateCallInvoker().AsyncUnaryCall(unknown, null, new CallOptions(cancellationToken: TestTimeout.Token), new GetFileInfoRequest()));

        Assert.Equal(StatusCode.Unimplemented, error.StatusCode);
    }

    [Theory]
    [InlineData("1023")]
    [InlineData("4194305")]
    public void The_Chunk_Size_Is_Validated_At_Start(string chunkSize)
    {
        _server.With("Grpc:ChunkSizeBytes", chunkSize);

        var error = Assert.ThrowsAny<Exception>(() => _server.AddressOf(HttpProtocols.Http2));

        Assert.Contains("ChunkSizeBytes", error.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1024, 1_000_000)]
    [InlineData(1024, 1024)]
    [InlineData(100_000, 1_000_000)]
    public async Task The_Configured_Chunk_Size_Cuts_Every_Chunk_But_The_Last(int chunkSize, int fileSize)
    {
        _server.With("Grpc:ChunkSizeBytes", chunkSize.ToString(System.Globalization.CultureInfo.InvariantCulture));
        var source = _server.Storage.WriteRandom("chunks.bin", fileSize);

        var download = await GrpcTransfers.DownloadAsync(GrpcClients.For(_server), "chunks.bin", TestTimeout.Token);

        Assert.Equal((fileSize + chunkSize - 1) / chunkSize, download.Chunks.Count);
        Assert.All(download.Chunks.SkipLast(1), c => Assert.Equal(chunkSize, c.Length));
        Assert.Equal(source, download.Bytes);
    }

    public void Dispose() => _server.Dispose();
}
