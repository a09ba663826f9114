using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// Where each protocol goes without <c>--server</c>: the server's cleartext REST port (HTTP/1.1) and
/// cleartext gRPC port (h2c) differ, so each has its own variable; a TLS port serves both.
/// </summary>
public sealed class ServerAddressTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    private string Http1 => _server.AddressOf(HttpProtocols.Http1).ToString();

    private string Http2 => _server.AddressOf(HttpProtocols.Http2).ToString();

    [Fact]
    public async Task Each_Protocol_Uses_Its_Own_Variable_As_The_Docs_Export_Them()
    {
        _server.Storage.WriteRandom("env/a.bin", 3);
        var environment = Environment(("FILETRANSFER_SERVER", Http1), ("FILETRANSFER_GRPC_SERVER", Http2));

        var rest = await Tool.RunAsync(environment, "ls", "env/");
        var grpc = await Tool.RunAsync(environment, "ls", "env/", "--protocol", "grpc");

        Assert.True(rest.ExitCode == 0, rest.ToString());
        Assert.True(grpc.ExitCode == 0, grpc.ToString());
        Assert.Equal(rest.Output, grpc.Output);
    }

    [Fact]
    public async Task A_Cleartext_Rest_Address_Is_Not_Used_For_Grpc()
    {
        // Before: gRPC went to the HTTP/1.1 port and exited 9.
        var result = await Tool.RunAsync(Environment(("FILETRANSFER_SERVER", Http1)), "ls", "--protocol", "grpc");

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("set $FILETRANSFER_GRPC_SERVER", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_Https_Rest_Address_Serves_Grpc_Too()
    {
        using var certificate = new SelfSignedCertificate();
        certificate.AddEndpointTo(_server);
        _server.Storage.WriteRandom("env/tls.bin", 7);
        var environment = Environment(("FILETRANSFER_SERVER", _server.AddressOf(HttpProtocols.Http1AndHttp2).ToString()));

        var result = await Tool.RunAsync(environment, "info", "env/tls.bin", "--protocol", "grpc", "--cacert", certificate.CertificatePath);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("protocol: grpc", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Server_Option_Wins_Over_Both_Variables()
    {
        _server.Storage.WriteRandom("env/b.bin", 3);
        var environment = Environment(("FILETRANSFER_SERVER", "http://127.0.0.1:1"), ("FILETRANSFER_GRPC_SERVER", "http://127.0.0.1:1"));

        var rest = await Tool.RunAsync(environment, "ls", "env/", "--server", Http1);
        var grpc = await Tool.RunAsync(environment, "ls", "env/", "--server", Http2, "--protocol", "grpc");

        Assert.True(rest.ExitCode == 0, rest.ToString());
        Assert.True(grpc.ExitCode == 0, grpc.ToString());
    }

    [Fact]
    public async Task Grpc_Variable_Is_Not_Used_For_Rest()
    {
        var result = await Tool.RunAsync(Environment(("FILETRANSFER_SERVER", Http1), ("FILETRANSFER_GRPC_SERVER", "http://127.0.0.1:1")), "ls");

        Assert.True(result.ExitCode == 0, result.ToString());
    }

    private static Dictionary<string, string> Environment(params (string Name, string Value)[] variables) =>
        variables.ToDictionary(v => v.Name, v => v.Value);

    public void Dispose() => _server.Dispose();
}
