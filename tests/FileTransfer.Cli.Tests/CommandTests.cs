using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary><c>ls</c>, <c>info</c>, signed links and the exit codes scripts rely on, against real Kestrel.</summary>
public sealed class CommandTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Fact]
    public async Task Ls_Prints_Size_Time_And_Name_Of_Each_File_Under_The_Prefix()
    {
        _server.Storage.WriteRandom("docs/a.txt", 12);
        _server.Storage.WriteRandom("docs/b c.bin", 123_456);
        _server.Storage.WriteRandom("other/x.bin", 1);

        var result = await Tool.RunAsync("ls", "docs/", "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        var lines = result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Matches(@"^\s+12  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  docs/a\.txt$", lines[0]);
        Assert.Matches(@"^123456  \S+  docs/b c\.bin$", lines[1]);
    }

    [Fact]
    public async Task Ls_Json_Prints_The_Servers_Listing()
    {
        _server.Storage.WriteRandom("j/one.bin", 5);

        var result = await Tool.RunAsync("ls", "--json", "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("\"name\":\"j/one.bin\"", result.Output, StringComparison.Ordinal);
        Assert.Contains("\"size\":5", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Info_Prints_Size_Type_And_ETag_From_A_Head_Request()
    {
        _server.Storage.WriteRandom("info/report.pdf", 4321);

        var result = await Tool.RunAsync("info", "info/report.pdf", "--server", Http1);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("name: info/report.pdf\n", result.Output, StringComparison.Ordinal);
        Assert.Contains("size: 4321\n", result.Output, StringComparison.Ordinal);
        Assert.Contains("content-type: application/pdf\n", result.Output, StringComparison.Ordinal);
        Assert.Matches("etag: \"[0-9a-f]+-10e1\"", result.Output);
    }

    [Fact]
    public async Task Info_Of_A_Missing_File_Exits_3()
    {
        var result = await Tool.RunAsync("info", "nothing/here.bin", "--server", Http1);

        Assert.Equal(3, result.ExitCode);
        Assert.Contains("Not found (404)", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_Signed_Link_Is_Used_As_Is_Without_The_Api_Key()
    {
        var source = _server.Storage.WriteRandom("links/file.bin", 2048);
        var link = await SignedReadLinkAsync("links/file.bin");
        var noKey = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = string.Empty };

        var result = await Tool.RunAsync(noKey, "download", link, "-o", _local.RootPath + "/");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_local.PathOf("file.bin"), TestTimeout.Token));
    }

    [Fact]
    public async Task Server_Comes_From_The_Environment_When_Not_Given()
    {
        _server.Storage.WriteRandom("env/a.bin", 3);
        var environment = new Dictionary<string, string> { ["FILETRANSFER_SERVER"] = Http1 };

        var result = await Tool.RunAsync(environment, "ls");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("env/a.bin", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ls_And_Info_Print_The_Same_Over_Grpc_As_Over_Rest()
    {
        _server.Storage.WriteRandom("same/a.txt", 12);
        _server.Storage.WriteRandom("same/b c.bin", 123_456);

        var restLs = await Tool.RunAsync("ls", "same/", "--server", Http1);
        var grpcLs = await Tool.RunAsync("ls", "same/", "--server", Http2, "--protocol", "grpc");
        var restJson = await Tool.RunAsync("ls", "same/", "--json", "--server", Http1);
        var grpcJson = await Tool.RunAsync("ls", "same/", "--json", "--server", Http2, "--protocol", "grpc");
        var restInfo = await Tool.RunAsync("info", "same/b c.bin", "--server", Http1);
        var grpcInfo = await Tool.RunAsync("info", "same/b c.bin", "--server", Http2, "--protocol", "grpc");

        Assert.True(grpcLs.ExitCode == 0, grpcLs.ToString());
        Assert.Equal(restLs.Output, grpcLs.Output);
        Assert.Equal(NormalizeTimes(restJson.Output), NormalizeTimes(grpcJson.Output));
        Assert.Contains("\"name\":\"same/b c.bin\"", grpcJson.Output, StringComparison.Ordinal);
        Assert.Equal(InfoWithoutTransport(restInfo.Output), InfoWithoutTransport(grpcInfo.Output));
        Assert.Contains("protocol: grpc\nhttp-version: 2.0", grpcInfo.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Grpc_To_A_Port_Without_Http2_Exits_9_And_Names_The_Grpc_Port()
    {
        var result = await Tool.RunAsync("download", "a.bin", "-o", _local.PathOf("a.bin"), "--server", Http1, "--protocol", "grpc");

        Assert.True(result.ExitCode == 9, result.ToString());
        Assert.Contains("does not speak gRPC on this port", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Theory]
    [InlineData("download")]
    [InlineData("frobnicate", "x")]
    [InlineData("ls", "--http", "3")]
    [InlineData("upload", "a", "b", "--overwrite", "--no-overwrite")]
    [InlineData("ls", "--server", "ftp://example")]
    public async Task Usage_Errors_Exit_2(params string[] args)
    {
        var result = await Tool.RunAsync(args);

        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith("filetransfer: ", result.Error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("videos/", "'videos/' names a folder, not a file: download takes a file's name (filetransfer ls videos/ lists the files in it).")]
    [InlineData("", "The file name is empty: download takes the name of a file on the server, e.g. videos/big.bin.")]
    public async Task Download_Of_A_Folder_Or_An_Empty_Name_Is_A_Usage_Error(string name, string message)
    {
        var result = await Tool.RunAsync("download", name, "--server", Http1);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains($"filetransfer: {message}", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("unexpected", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Server_Refusing_The_Name_Exits_2_With_Its_Detail()
    {
        var result = await Tool.RunAsync("download", ".ft-secret", "-o", _local.PathOf("x"), "--server", Http1);

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("reserved for the server", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Missing_Api_Key_Exits_4_And_Says_How_To_Pass_One()
    {
        _server.Storage.WriteRandom("auth/a.bin", 10);
        var noKey = new Dictionary<string, string> { ["FILETRANSFER_API_KEY"] = string.Empty };

        var result = await Tool.RunAsync(noKey, "download", "auth/a.bin", "-o", _local.PathOf("a.bin"), "--server", Http1);

        Assert.Equal(4, result.ExitCode);
        Assert.Contains("Not authorized (401)", result.Error, StringComparison.Ordinal);
        Assert.Contains("--api-key", result.Error, StringComparison.Ordinal);
        Assert.Empty(_local.Files());
    }

    [Fact]
    public async Task Api_Key_Without_The_Write_Scope_Exits_10_On_Upload()
    {
        const string ReadOnlyKey = "read-only-key-0123456789abcdefghij";
        _server.With("Auth:ApiKeys:1:Key", ReadOnlyKey).With("Auth:ApiKeys:1:Scopes:0", "read");
        _local.WriteRandom("up.bin", 10);

        var result = await Tool.RunAsync("upload", _local.PathOf("up.bin"), "--server", Http1, "--api-key", ReadOnlyKey);

        Assert.Equal(10, result.ExitCode);
        Assert.Contains("Forbidden (403)", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("up.bin", _server.Storage.Files());
    }

    [Fact]
    public async Task Unreachable_Server_Exits_7()
    {
        var result = await Tool.RunAsync("ls", "--server", "http://127.0.0.1:1");

        Assert.Equal(7, result.ExitCode);
        Assert.Contains("Cannot reach http://127.0.0.1:1", result.Error, StringComparison.Ordinal);
    }

    private string Http1 => _server.AddressOf(HttpProtocols.Http1).ToString();

    /// <summary>
    /// A read link from <c>POST /api/links</c>. A build without link issuing (404) serves files
    /// without authentication; a URL with a query string stands in for the link there.
    /// </summary>
    private async Task<string> SignedReadLinkAsync(string name)
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ExternalTool.ApiKey);
        using var response = await client.PostAsJsonAsync("/api/links", new { path = name, access = "read" }, TestTimeout.Token);
        var token = response.StatusCode == HttpStatusCode.NotFound
            ? "stand-in"
            : (await response.Content.ReadFromJsonAsync<JsonElement>(TestTimeout.Token)).GetProperty("token").GetString();
        return new Uri(_server.AddressOf(HttpProtocols.Http1), $"/api/files/{name}?sig={Uri.EscapeDataString(token!)}").ToString();
    }

    private string Http2 => _server.AddressOf(HttpProtocols.Http2).ToString();

    // REST times carry the file system's ticks, gRPC's Timestamp nanoseconds: the same instant, written differently.
    private static string NormalizeTimes(string json) =>
        System.Text.RegularExpressions.Regex.Replace(json, "\"lastModified\":\"[^\"]+\"", m => m.Value[..35]);

    private static string InfoWithoutTransport(string info) =>
        string.Join('\n', info.Split('\n').Where(l => !l.StartsWith("protocol:", StringComparison.Ordinal) && !l.StartsWith("http-version:", StringComparison.Ordinal)));

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
