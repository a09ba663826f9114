using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Deployment;

/// <summary>
/// The compose profile <c>s3</c>'s load balancer as shipped (deploy/nginx/filetransfer.conf), run by
/// the real nginx in front of two real replicas on one bucket of the real RGW: only the upstream
/// host names and the listening ports are swapped for loopback ones. REST and gRPC both pass through,
/// bodies stream both ways, and a download's 307 reaches the client untouched.
/// </summary>
public sealed class S3ProfileProxyTests : IAsyncLifetime
{
    private const int Multipart = (9 * 1024 * 1024) + 99;

    private readonly string _bucket = CephRgw.NewBucketName();
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "ft-nginx-" + Guid.NewGuid().ToString("N")[..12]);
    private CephRgw _rgw = null!;
    private KestrelFactory _a = null!;
    private KestrelFactory _b = null!;
    private Process? _nginx;
    private Uri _rest = null!;
    private Uri _grpc = null!;

    public async Task InitializeAsync()
    {
        _rgw = await CephRgw.GetAsync();
        _a = Replica();
        _b = Replica();
        var (restPort, grpcPort) = (FreePort(), FreePort());
        var shipped = await File.ReadAllTextAsync(Path.Combine(RepositoryPaths.Root, "deploy", "nginx", "filetransfer.conf"));
        var config = shipped
            .Replace("filetransfer-a:5000", HostPort(_a, HttpProtocols.Http1), StringComparison.Ordinal)
            .Replace("filetransfer-b:5000", HostPort(_b, HttpProtocols.Http1), StringComparison.Ordinal)
            .Replace("filetransfer-a:5001", HostPort(_a, HttpProtocols.Http2), StringComparison.Ordinal)
            .Replace("filetransfer-b:5001", HostPort(_b, HttpProtocols.Http2), StringComparison.Ordinal)
            .Replace("listen 8080;", $"listen 127.0.0.1:{restPort};", StringComparison.Ordinal)
            .Replace("listen 8081 http2;", $"listen 127.0.0.1:{grpcPort} http2;", StringComparison.Ordinal);
        Assert.DoesNotContain(config.Split('\n'), line => !line.TrimStart().StartsWith('#') && line.Contains("filetransfer-", StringComparison.Ordinal));

        Directory.CreateDirectory(_folder);
        await File.WriteAllTextAsync(Path.Combine(_folder, "filetransfer.conf"), config);
        await File.WriteAllTextAsync(Path.Combine(_folder, "nginx.conf"), $$"""
            pid {{_folder}}/nginx.pid;
            error_log {{_folder}}/error.log;
            events {}
            http {
                access_log off;
                client_body_temp_path {{_folder}}/body;
                proxy_temp_path {{_folder}}/proxy;
                include {{_folder}}/filetransfer.conf;
            }
            """);
        _nginx = Process.Start(new ProcessStartInfo("nginx", ["-c", Path.Combine(_folder, "nginx.conf"), "-p", _folder + "/", "-g", "daemon off;"])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        })!;
        _rest = new Uri($"http://127.0.0.1:{restPort}");
        _grpc = new Uri($"http://127.0.0.1:{grpcPort}");
        await WaitForPortAsync(restPort);
        await WaitForPortAsync(grpcPort);
    }

    [Fact]
    public async Task Rest_And_Grpc_Pass_Through_To_Both_Replicas_And_A_Download_Is_Redirected_To_The_Store()
    {
        var viaRest = TestData.RandomBytes(Multipart);
        var viaGrpc = TestData.RandomBytes(100_000);
        using var rest = KestrelFactory.ClientFor(_rest, HttpVersion.Version11, new SocketsHttpHandler { AllowAutoRedirect = false });
        using var channel = GrpcClients.Channel(_grpc);
        var grpc = new FileService.FileServiceClient(channel);

        using var put = await rest.PutAsync("/api/files/proxied/rest.bin", new ByteArrayContent(viaRest), TestTimeout.Token);
        var uploaded = await GrpcTransfers.UploadAsync(grpc, "proxied/grpc.bin", viaGrpc, 32 * 1024, TestTimeout.Token);
        var listed = await grpc.ListFilesAsync(new ListFilesRequest { Prefix = "proxied/" }, cancellationToken: TestTimeout.Token);
        var downloaded = await GrpcTransfers.DownloadAsync(grpc, "proxied/rest.bin", TestTimeout.Token);

        // Round robin sends successive GETs to the two replicas in turn; each must answer with the store's URL.
        var locations = new List<Uri>();
        for (var i = 0; i < 2; i++)
        {
            using var redirect = await rest.GetAsync("/api/files/proxied/grpc.bin", TestTimeout.Token);
            Assert.Equal(HttpStatusCode.TemporaryRedirect, redirect.StatusCode);
            locations.Add(redirect.Headers.Location!);
        }

        using var store = new HttpClient();
        var fromStore = await store.GetByteArrayAsync(locations[^1], TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.True(uploaded.Created);
        Assert.Equal(["proxied/grpc.bin", "proxied/rest.bin"], listed.Files.Select(f => f.FileName));
        Assert.Equal(SHA256.HashData(viaRest), SHA256.HashData(downloaded.Bytes));
        Assert.All(locations, location => Assert.Equal(_rgw.ServiceUrl.Authority, location.Authority));
        Assert.Equal(SHA256.HashData(viaGrpc), SHA256.HashData(fromStore));
    }

    public async Task DisposeAsync()
    {
        if (_nginx is { HasExited: false })
        {
            _nginx.Kill(entireProcessTree: true);
            await _nginx.WaitForExitAsync();
        }

        _nginx?.Dispose();
        _a?.Dispose();
        _b?.Dispose();
        using var client = _rgw.CreateClient();
        await S3Buckets.DeleteAsync(client, _bucket);
        Directory.Delete(_folder, recursive: true);
    }

    private KestrelFactory Replica() => (KestrelFactory)new KestrelFactory().OnS3(_rgw, _bucket, redirect: true).With("RateLimit:Enabled", "false");

    private static string HostPort(KestrelFactory replica, HttpProtocols protocols) => replica.AddressOf(protocols).Authority;

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private async Task WaitForPortAsync(int port)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (true)
        {
            try
            {
                using var probe = new TcpClient();
                await probe.ConnectAsync(IPAddress.Loopback, port, TestTimeout.Token);
                return;
            }
            catch (SocketException) when (DateTime.UtcNow < deadline && _nginx is { HasExited: false })
            {
                await Task.Delay(50, TestTimeout.Token);
            }
            catch (SocketException) when (_nginx is { HasExited: true })
            {
                Assert.Fail($"nginx exited {_nginx.ExitCode}: {await _nginx.StandardError.ReadToEndAsync(TestTimeout.Token)}");
            }
        }
    }
}
