using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// Resumable uploads from third-party clients run as processes: tus-js-client killed mid-upload and
/// run again (tus, and the IETF draft it also speaks), Python grpcio finishing what tus-js-client
/// began, and curl driving the draft by hand.
/// </summary>
public sealed class ResumableInteropTests : IDisposable
{
    private const int Chunk = 256 * 1024;
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData("tus-v1")]
    [InlineData("ietf-draft-05")]
    public async Task Tus_Js_Client_Killed_Mid_Upload_Resumes_From_Where_The_Server_Stood(string protocol)
    {
        var source = _local.WriteRandom("big.bin", (6 * Chunk) + 4321);
        var name = $"interop/{protocol}.bin";
        string[] arguments =
        [
            "--endpoint", Endpoint(protocol, name), "--file", _local.PathOf("big.bin"), "--name", name, "--key", ExternalTool.ApiKey,
            "--store", _local.PathOf("tus-urls.json"), "--chunk-size", Chunk.ToString(CultureInfo.InvariantCulture), "--protocol", protocol,
        ];

        var killed = await TusJsClient.RunAsync([.. arguments, "--die-after", (2 * Chunk).ToString(CultureInfo.InvariantCulture)]);
        Assert.True(killed.ExitCode == 137, $"exit {killed.ExitCode}: {killed.Error}");
        var accepted = TusJsClient.Event(killed.Events, "dying").GetProperty("accepted").GetInt64();
        Assert.DoesNotContain(name, _server.Storage.VisibleFiles());

        var resumed = await TusJsClient.RunAsync(arguments);

        Assert.True(resumed.ExitCode == 0, $"exit {resumed.ExitCode}: {string.Join(' ', resumed.Events)} {resumed.Error}");
        Assert.Equal(TusJsClient.Event(killed.Events, "dying").GetProperty("url").GetString(), TusJsClient.Event(resumed.Events, "resuming").GetProperty("url").GetString());
        Assert.Equal(accepted, TusJsClient.Event(resumed.Events, "started").GetProperty("offset").GetInt64());
        Assert.True(File.Exists(_server.Storage.PathOf(name)), $"{string.Join(' ', resumed.Events)} {string.Join(' ', _server.Storage.Files())}");
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(File.ReadAllBytes(_server.Storage.PathOf(name))));
    }

    [Fact]
    public async Task Python_Grpcio_Finishes_An_Upload_Tus_Js_Client_Began()
    {
        var source = _local.WriteRandom("handover.bin", (5 * Chunk) + 99);
        var killed = await TusJsClient.RunAsync(
            "--endpoint", new Uri(Http1, "/api/uploads").ToString(), "--file", _local.PathOf("handover.bin"), "--name", "interop/handover.bin",
            "--key", ExternalTool.ApiKey, "--chunk-size", Chunk.ToString(CultureInfo.InvariantCulture), "--die-after", "1");
        var dying = TusJsClient.Event(killed.Events, "dying");
        var uploadId = new Uri(dying.GetProperty("url").GetString()!).Segments[^1];

        // "--" first: an upload id is base64url and may begin with '-', which argparse would take for an option.
        var run = await GrpcInteropClient.Python.RunAsync(_server.AddressOf(HttpProtocols.Http2), ExternalTool.ApiKey, "resume", "--", uploadId, _local.PathOf("handover.bin"));

        var result = run.Succeeded();
        Assert.Equal(dying.GetProperty("accepted").GetInt64(), result.GetProperty("resumed_from").GetInt64());
        Assert.Equal(Chunk, result.GetProperty("resumed_from").GetInt64());
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(source)), result.GetProperty("metadata").GetProperty("sha256").GetString());
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("interop/handover.bin")));
    }

    [Fact]
    public async Task Curl_Drives_The_Draft_By_Hand_Creation_Offset_Mismatch_Head_And_Append()
    {
        var source = _local.WriteRandom("curl.bin", 300_000);
        File.WriteAllBytes(_local.PathOf("first"), source[..100_000]);
        File.WriteAllBytes(_local.PathOf("rest"), source[100_000..]);
        var target = new Uri(Http1, "/api/files/interop/curl-draft.bin").ToString();

        var created = await CurlAsync("-X", "POST", target, "-H", "Upload-Draft-Interop-Version: 6", "-H", "Upload-Complete: ?0", "--data-binary", "@" + _local.PathOf("first"));
        Assert.Contains("HTTP/1.1 201", created, StringComparison.Ordinal);
        var location = new Uri(Http1, Header(created, "Location"));
        Assert.Equal("100000", Header(created, "Upload-Offset"));

        var wrong = await CurlAsync("-X", "PATCH", location.ToString(), "-H", "Upload-Draft-Interop-Version: 6", "-H", "Upload-Offset: 5", "-H", "Upload-Complete: ?1",
            "-H", "Content-Type: application/partial-upload", "--data-binary", "@" + _local.PathOf("rest"));
        Assert.Contains("HTTP/1.1 409", wrong, StringComparison.Ordinal);
        Assert.Contains("application/problem+json", wrong, StringComparison.Ordinal);
        Assert.Contains("mismatching-upload-offset", wrong, StringComparison.Ordinal);

        var head = await CurlAsync("-I", location.ToString(), "-H", "Upload-Draft-Interop-Version: 6");
        Assert.Equal("100000", Header(head, "Upload-Offset"));
        Assert.Equal("?0", Header(head, "Upload-Complete"));

        var done = await CurlAsync("-X", "PATCH", location.ToString(), "-H", "Upload-Draft-Interop-Version: 6", "-H", "Upload-Offset: 100000", "-H", "Upload-Complete: ?1",
            "-H", "Content-Type: application/partial-upload", "--data-binary", "@" + _local.PathOf("rest"));
        Assert.Contains("HTTP/1.1 201", done, StringComparison.Ordinal);
        Assert.Equal("?1", Header(done, "Upload-Complete"));
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("interop/curl-draft.bin")));
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }

    private Uri Http1 => _server.AddressOf(HttpProtocols.Http1);

    // tus creates at api/uploads; the draft creates on the target itself.
    private string Endpoint(string protocol, string name) =>
        new Uri(Http1, protocol == "tus-v1" ? "/api/uploads" : "/api/files/" + name).ToString();

    // Headers and body of one curl request (-i), as text.
    private static async Task<string> CurlAsync(params string[] arguments)
    {
        var (exitCode, output, error) = await ExternalTool.RunAsync("curl", ["-sS", "-i", "-H", ExternalTool.AuthorizationHeader, .. arguments]);
        Assert.True(exitCode == 0, $"curl exit {exitCode}: {error}");
        return Encoding.UTF8.GetString(output);
    }

    private static string Header(string response, string name) =>
        response.Split("\r\n").Select(line => line.Split(':', 2)).Where(parts => parts.Length == 2 && parts[0].Equals(name, StringComparison.OrdinalIgnoreCase))
            .Select(parts => parts[1].Trim()).Single();
}
