using System.Net;
using System.Text.Json;
using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary><c>filetransfer watch [FOLDER]</c> over both protocols: a line per event, or one JSON object per line with <c>--json</c>.</summary>
public sealed class WatchCommandTests : IDisposable
{
    private const string Start = "0000000000000000000-00000000-0000000000";
    private readonly KestrelFactory _server = new();

    [Theory]
    [InlineData("rest")]
    [InlineData("grpc")]
    public async Task Watch_Json_Prints_One_Object_Per_Event_In_The_Folder(string protocol)
    {
        await ChangeAsync();

        var result = await WatchAsync(protocol, "w/", "--json", "--after", Start);

        var events = result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal([("file.created", "w/a.bin"), ("file.deleted", "w/a.bin")], events.Select(e => (e.GetProperty("type").GetString(), e.GetProperty("name").GetString())));
        Assert.Equal(3, events[0].GetProperty("size").GetInt64());
        Assert.Equal(64, events[0].GetProperty("sha256").GetString()!.Length);
        Assert.Equal("rest", events[0].GetProperty("protocol").GetString());
    }

    [Fact]
    public async Task Watch_Prints_Time_Type_Name_And_Details()
    {
        await ChangeAsync();

        var result = await WatchAsync("rest", "w/", "--after", Start);

        var lines = result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z  file\.created      w/a\.bin  \(3 bytes, rest, key:[0-9a-f]+\)$", lines[0]);
        Assert.Matches(@"  file\.deleted      w/a\.bin  \(rest, key:", lines[1]);
    }

    public void Dispose() => _server.Dispose();

    private async Task ChangeAsync()
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        (await client.PutAsync("api/files/w/a.bin", new ByteArrayContent([1, 2, 3]), TestTimeout.Token)).EnsureSuccessStatusCode();
        (await client.PutAsync("api/files/other.bin", new ByteArrayContent([1]), TestTimeout.Token)).EnsureSuccessStatusCode();
        (await client.DeleteAsync("api/files/w/a.bin", TestTimeout.Token)).EnsureSuccessStatusCode();
    }

    // The watch runs until interrupted: the retained events come at once, then it is stopped as Ctrl+C would.
    private async Task<CliResult> WatchAsync(string protocol, params string[] args)
    {
        var server = _server.AddressOf(protocol == "grpc" ? HttpProtocols.Http2 : HttpProtocols.Http1).ToString();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        stop.CancelAfter(TimeSpan.FromSeconds(3));
        return await Tool.RunAsync(new ToolRun { Cancellation = stop.Token }, ["watch", .. args, "--server", server, "--protocol", protocol]);
    }
}
