using System.Net;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// FileService from a gRPC stack that is not .NET's, run as a separate process against real Kestrel's
/// cleartext HTTP/2 endpoint: every RPC and the refusals a client switches on (code and ErrorInfo
/// reason). Each stack runs the same tests through its own subclass; what the server reports is
/// checked against REST (ETag, Repr-Digest) and the bytes against the source's SHA-256.
/// </summary>
public abstract class GrpcInteropTests(GrpcInteropClient client) : IDisposable
{
    private const int ChunkSize = 32 * 1024; // Grpc:ChunkSizeBytes default

    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(ChunkSize - 1)]
    [InlineData(ChunkSize)]
    [InlineData(ChunkSize + 1)]
    [InlineData((3 * 1024 * 1024) + 12345)]
    public async Task Download_Arrives_Byte_Exact_After_Metadata_With_The_Servers_ETag_And_Digest(int size)
    {
        var source = _server.Storage.WriteRandom($"edge/{size}.bin", size);
        var output = _local.PathOf($"{size}.bin");

        var result = (await RunAsync("download", $"edge/{size}.bin", output)).Succeeded();
        var chunks = Ints(result.GetProperty("chunk_sizes"));
        var rest = await RestHeadAsync($"edge/{size}.bin");

        // The program exits 3 unless exactly one metadata message came first (see its header).
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
        Assert.Equal(TempStorage.Sha256(source), result.GetProperty("sha256").GetString(), ignoreCase: true);
        Assert.Equal((size + ChunkSize - 1) / ChunkSize, chunks.Count);
        Assert.All(chunks.SkipLast(1), length => Assert.Equal(ChunkSize, length));
        var metadata = result.GetProperty("metadata");
        Assert.Equal($"edge/{size}.bin", metadata.GetProperty("file_name").GetString());
        Assert.Equal(size, metadata.GetProperty("size").GetInt64());
        Assert.Equal(rest.ETag, metadata.GetProperty("etag").GetString());
        Assert.Equal(rest.Sha256, metadata.GetProperty("sha256").GetString());
    }

    [Fact]
    public async Task Download_From_An_Offset_With_A_Limit_Sends_Exactly_Those_Bytes()
    {
        var source = _server.Storage.WriteRandom("range.bin", 100_000);
        var output = _local.PathOf("range.bin");

        var result = (await RunAsync("download", "range.bin", output, "--offset", "1000", "--limit", "70000")).Succeeded();

        Assert.Equal(source[1000..71_000], await File.ReadAllBytesAsync(output, TestTimeout.Token));
        Assert.Equal([ChunkSize, ChunkSize, 70_000 - (2 * ChunkSize)], Ints(result.GetProperty("chunk_sizes")));
        Assert.Equal(100_000, result.GetProperty("metadata").GetProperty("size").GetInt64());
    }

    [Theory]
    [InlineData(0, ChunkSize)]
    [InlineData(1, ChunkSize)]
    [InlineData(4097, 1)]
    [InlineData(ChunkSize + 1, ChunkSize)]
    [InlineData((3 * 1024 * 1024) + 12345, 1024 * 1024)]
    public async Task Upload_With_Its_Sha256_Is_Stored_Byte_Exact(int size, int chunk)
    {
        var source = _local.WriteRandom("upload.bin", size);

        var result = (await RunAsync("upload", _local.PathOf("upload.bin"), "up/loaded.bin", "--chunk", $"{chunk}")).Succeeded();
        var rest = await RestHeadAsync("up/loaded.bin");

        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("up/loaded.bin"), TestTimeout.Token));
        var metadata = result.GetProperty("metadata");
        Assert.Equal(TempStorage.Sha256(source), metadata.GetProperty("sha256").GetString(), ignoreCase: true);
        Assert.Equal(size, metadata.GetProperty("size").GetInt64());
        Assert.Equal(rest.ETag, metadata.GetProperty("etag").GetString());
        Assert.Equal(["up/loaded.bin"], _server.Storage.VisibleFiles());
        Assert.Empty(_server.Storage.TempFiles());
    }

    [Fact]
    public async Task Upload_Over_An_Existing_Name_Is_Already_Exists_Until_Overwrite_Is_Set()
    {
        var old = _server.Storage.WriteRandom("taken.bin", 50_000);
        var replacement = _local.WriteRandom("new.bin", 70_000);

        var refused = (await RunAsync("upload", _local.PathOf("new.bin"), "taken.bin")).Refused();
        var kept = await File.ReadAllBytesAsync(_server.Storage.PathOf("taken.bin"), TestTimeout.Token);
        (await RunAsync("upload", _local.PathOf("new.bin"), "taken.bin", "--overwrite")).Succeeded();

        AssertRefusal(refused, 6, "ALREADY_EXISTS", "FILE_EXISTS");
        Assert.Equal(old, kept);
        Assert.Equal(replacement, await File.ReadAllBytesAsync(_server.Storage.PathOf("taken.bin"), TestTimeout.Token));
        Assert.Empty(_server.Storage.TempFiles());
    }

    [Fact]
    public async Task Info_Reports_What_Rest_And_The_Dotnet_Client_Report()
    {
        var source = _server.Storage.WriteRandom("info/a.txt", 1234);

        var metadata = (await RunAsync("info", "info/a.txt")).Succeeded().GetProperty("metadata");
        var rest = await RestHeadAsync("info/a.txt");
        var dotnet = await GrpcClients.For(_server).GetFileInfoAsync(new GetFileInfoRequest { FileName = "info/a.txt" }, cancellationToken: TestTimeout.Token);

        Assert.Equal("info/a.txt", metadata.GetProperty("file_name").GetString());
        Assert.Equal(1234, metadata.GetProperty("size").GetInt64());
        Assert.Equal("text/plain", metadata.GetProperty("content_type").GetString());
        Assert.Equal(rest.ETag, metadata.GetProperty("etag").GetString());
        Assert.Equal(TempStorage.Sha256(source), metadata.GetProperty("sha256").GetString(), ignoreCase: true);
        Assert.Equal(rest.Sha256, metadata.GetProperty("sha256").GetString());
        // proto3's JSON form of a Timestamp (RFC 3339, 0/3/6/9 fractional digits), as Google.Protobuf writes it.
        Assert.Equal(JsonFormatter.Default.Format(dotnet.LastModified).Trim('"'), metadata.GetProperty("last_modified").GetString());
    }

    [Fact]
    public async Task A_Unicode_Name_Round_Trips_And_A_Refusal_Naming_It_Arrives_Intact()
    {
        const string Name = "uni/é 日本.txt";
        var source = _local.WriteRandom("u.bin", 1000);

        var uploaded = (await RunAsync("upload", _local.PathOf("u.bin"), Name)).Succeeded().GetProperty("metadata");
        var listed = (await RunAsync("list", "uni/")).Succeeded().GetProperty("files").EnumerateArray().Single();
        // grpc-message is percent-encoded UTF-8 on the wire (gRPC over HTTP/2 spec); the stack decodes it.
        var missing = (await RunAsync("info", "uni/é missing")).Refused();

        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf(Name), TestTimeout.Token));
        Assert.Equal(Name, uploaded.GetProperty("file_name").GetString());
        Assert.Equal(Name, listed.GetProperty("file_name").GetString());
        AssertRefusal(missing, 5, "NOT_FOUND", "FILE_NOT_FOUND");
        Assert.Contains("'uni/é missing'", missing.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_Follows_Next_Page_Token_Through_Every_Page_In_Order()
    {
        var names = Enumerable.Range(0, 25).Select(i => $"p/{i:D2}.bin").Concat(["p/sub/deep.bin", "p/A.bin", "q/other.bin", "p.txt"]).ToList();
        foreach (var (name, i) in names.Select((n, i) => (n, i)))
        {
            _server.Storage.WriteRandom(name, i);
        }

        var result = (await RunAsync("list", "p/", "--page-size", "7")).Succeeded();
        var files = result.GetProperty("files").EnumerateArray().ToList();

        var expected = names.Where(n => n.StartsWith("p/", StringComparison.Ordinal)).Order(StringComparer.Ordinal).ToList();
        Assert.Equal(expected, files.Select(f => f.GetProperty("file_name").GetString()));
        Assert.Equal(expected.Select(n => (long)names.IndexOf(n)), files.Select(f => f.GetProperty("size").GetInt64()));
        Assert.Equal([7, 7, 7, 6], Ints(result.GetProperty("pages")));
    }

    [Fact]
    public async Task Delete_Honours_If_Match_Removes_The_File_Then_Reports_Not_Found()
    {
        _server.Storage.WriteRandom("gone.bin", 10);
        var held = (await RunAsync("info", "gone.bin")).Succeeded().GetProperty("metadata").GetProperty("etag").GetString()!;
        File.SetLastWriteTimeUtc(_server.Storage.PathOf("gone.bin"), DateTime.UtcNow.AddMinutes(1));
        var current = (await RestHeadAsync("gone.bin")).ETag;

        var stale = (await RunAsync("delete", "gone.bin", "--if-match", held)).Refused();
        var survived = File.Exists(_server.Storage.PathOf("gone.bin"));
        var deleted = (await RunAsync("delete", "gone.bin", "--if-match", current)).Succeeded();
        var again = (await RunAsync("delete", "gone.bin")).Refused();

        AssertRefusal(stale, 9, "FAILED_PRECONDITION", "ETAG_MISMATCH");
        Assert.True(survived);
        Assert.Equal("gone.bin", deleted.GetProperty("deleted").GetString());
        Assert.Empty(_server.Storage.VisibleFiles());
        AssertRefusal(again, 5, "NOT_FOUND", "FILE_NOT_FOUND");
    }

    [Theory]
    [InlineData("info")]
    [InlineData("download")]
    public async Task A_Missing_File_Is_Not_Found_With_Reason_File_Not_Found(string command)
    {
        var output = _local.PathOf("missing.bin");
        string[] arguments = command == "download" ? [command, "missing.bin", output] : [command, "missing.bin"];

        var refused = (await RunAsync(arguments)).Refused();

        AssertRefusal(refused, 5, "NOT_FOUND", "FILE_NOT_FOUND");
        Assert.False(File.Exists(output));
    }

    [Theory]
    [InlineData("info")]
    [InlineData("download")]
    [InlineData("upload")]
    [InlineData("delete")]
    public async Task Dot_Dot_Secret_Is_Invalid_Argument_With_Reason_Invalid_File_Name(string command)
    {
        _local.WriteRandom("payload.bin", 100);
        string[] arguments = command switch
        {
            "download" => [command, "../secret", _local.PathOf("secret")],
            "upload" => [command, _local.PathOf("payload.bin"), "../secret"],
            _ => [command, "../secret"],
        };

        var refused = (await RunAsync(arguments)).Refused();

        AssertRefusal(refused, 3, "INVALID_ARGUMENT", "INVALID_FILE_NAME");
        Assert.False(File.Exists(Path.Combine(_server.Storage.RootPath, "..", "secret")));
        Assert.False(File.Exists(_local.PathOf("secret")));
        Assert.Empty(_server.Storage.Files());
    }

    [Theory]
    [InlineData("list")]
    [InlineData("info")]
    [InlineData("upload")]
    public async Task A_Call_Without_A_Key_Is_Unauthenticated_And_Changes_Nothing(string command)
    {
        _server.Storage.WriteRandom("private.bin", 100);
        _local.WriteRandom("payload.bin", 100);
        string[] arguments = command switch
        {
            "upload" => [command, _local.PathOf("payload.bin"), "intruder.bin"],
            "info" => [command, "private.bin"],
            _ => [command, ""],
        };

        var refused = (await client.RunAsync(Address, apiKey: null, arguments)).Refused();

        AssertRefusal(refused, 16, "UNAUTHENTICATED", "UNAUTHENTICATED");
        Assert.Equal(["private.bin"], _server.Storage.Files());
    }

    private Uri Address => _server.AddressOf(HttpProtocols.Http2);

    private Task<InteropRun> RunAsync(params string[] arguments) => client.RunAsync(Address, FileTransferFactory.TestKey, arguments);

    // The code as a number and a name, the ErrorInfo reason in our domain, and a message fit to show a user.
    private void AssertRefusal(InteropError error, int code, string status, string reason)
    {
        Assert.Equal((code, status, reason, "filetransfer.v1"), (error.Code, error.Status, error.Reason, error.Domain));
        Assert.False(string.IsNullOrWhiteSpace(error.Message));
        Assert.DoesNotContain(_server.Storage.RootPath, error.Message, StringComparison.Ordinal);
    }

    // What REST says of the same file: its ETag and, from Repr-Digest (RFC 9530), the SHA-256 in lower-case hex.
    private async Task<(string ETag, string Sha256)> RestHeadAsync(string name)
    {
        using var http = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var response = await http.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/" + name), TestTimeout.Token);
        response.EnsureSuccessStatusCode();
        var digest = response.Headers.GetValues("Repr-Digest").Single();
        Assert.StartsWith("sha-256=:", digest, StringComparison.Ordinal);
        var sha256 = Convert.FromBase64String(digest["sha-256=:".Length..].TrimEnd(':'));
        return (response.Headers.ETag!.ToString(), Convert.ToHexStringLower(sha256));
    }

    private static List<int> Ints(JsonElement array) => [.. array.EnumerateArray().Select(e => e.GetInt32())];

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
        GC.SuppressFinalize(this);
    }
}
