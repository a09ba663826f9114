using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// The self-signed TLS set-up of docs/deployment.md, one port for REST and gRPC:
/// <c>--cacert</c> and <c>--insecure</c> over both protocols.
/// </summary>
public sealed class TlsCommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly SelfSignedCertificate _certificate = new();
    private readonly TempStorage _local = new();

    public TlsCommandTests() => _certificate.AddEndpointTo(_server);

    private string Https => _server.AddressOf(HttpProtocols.Http1AndHttp2).ToString();

    [Theory]
    [InlineData("rest")]
    [InlineData("grpc")]
    public async Task Without_Trust_The_Self_Signed_Server_Exits_7_And_Names_The_Options(string protocol)
    {
        var result = await Tool.RunAsync("ls", "--server", Https, "--protocol", protocol);

        Assert.True(result.ExitCode == 7, result.ToString());
        Assert.Contains("--cacert FILE.pem", result.Error, StringComparison.Ordinal);
        Assert.Contains("--insecure", result.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("rest")]
    [InlineData("grpc")]
    public async Task Cacert_With_The_Servers_Certificate_Uploads_And_Downloads(string protocol)
    {
        var source = _local.WriteRandom("up.bin", 500_000);
        string[] tls = ["--server", Https, "--protocol", protocol, "--cacert", _certificate.CertificatePath];

        var upload = await Tool.RunAsync(["upload", _local.PathOf("up.bin"), "tls/up.bin", .. tls]);
        var download = await Tool.RunAsync(["download", "tls/up.bin", "-o", _local.PathOf("copy.bin"), .. tls]);
        var info = await Tool.RunAsync(["info", "tls/up.bin", .. tls]);

        Assert.True(upload.ExitCode == 0, upload.ToString());
        Assert.True(download.ExitCode == 0, download.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_local.PathOf("copy.bin"), TestTimeout.Token));
        Assert.Contains("http-version: 2.0", info.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("rest", "--insecure")]
    [InlineData("grpc", "-k")]
    public async Task Insecure_Accepts_The_Self_Signed_Certificate(string protocol, string option)
    {
        _server.Storage.WriteRandom("tls/a.bin", 4321);

        var result = await Tool.RunAsync("info", "tls/a.bin", "--server", Https, "--protocol", protocol, option);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("size: 4321", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cacert_With_Another_Certificate_Is_Refused()
    {
        using var other = new SelfSignedCertificate();

        var result = await Tool.RunAsync("ls", "--server", Https, "--cacert", other.CertificatePath);

        Assert.True(result.ExitCode == 7, result.ToString());
    }

    [Theory]
    [InlineData("missing")]
    [InlineData("no-certificate")]
    [InlineData("with-insecure")]
    public async Task Unusable_Tls_Options_Are_Usage_Errors(string problem)
    {
        var notPem = _local.PathOf("not.pem");
        await File.WriteAllTextAsync(notPem, "not a certificate", TestTimeout.Token);
        string[] args = problem switch
        {
            "missing" => ["--cacert", _local.PathOf("nope.pem")],
            "no-certificate" => ["--cacert", notPem],
            _ => ["--cacert", _certificate.CertificatePath, "--insecure"],
        };

        var result = await Tool.RunAsync(["ls", "--server", Https, .. args]);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.StartsWith("filetransfer: ", result.Error, StringComparison.Ordinal);
    }

    public void Dispose()
    {
        _server.Dispose();
        _certificate.Dispose();
        _local.Dispose();
    }
}
