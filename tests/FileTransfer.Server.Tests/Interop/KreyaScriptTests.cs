using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The Kreya project's scripts: every one parses, and the gRPC scripts, run under Node.js over
/// the messages the server sends, do what the README says: DownloadFile reassembles the file and
/// checks it, UploadFile and ListFiles hand the next request its ETag and page token.
/// </summary>
public sealed class KreyaScriptTests : IDisposable
{
    private const int ServerChunk = 32 * 1024;

    private static readonly string DownloadScript = Path.Combine("gRPC", "DownloadFile.js");

    private readonly KreyaScriptHost _host = new();

    public static TheoryData<string> Scripts => [.. KreyaProject.Scripts];

    public static TheoryData<int> Sizes => [0, 1, ServerChunk - 1, ServerChunk, ServerChunk + 1, (3 * ServerChunk) + 123];

    [Theory]
    [MemberData(nameof(Scripts))]
    public async Task Every_Script_Parses(string script)
    {
        var (exitCode, error) = await KreyaScriptHost.CheckSyntaxAsync(await File.ReadAllTextAsync(Path.Combine(KreyaProject.Root, script), TestTimeout.Token));

        Assert.True(exitCode == 0, error);
    }

    [Fact]
    public async Task Syntax_Check_Rejects_A_Broken_Script()
    {
        var (exitCode, error) = await KreyaScriptHost.CheckSyntaxAsync("import { expect } from 'chai';\nkreya.grpc.onResponse(msg => {\n");

        Assert.NotEqual(0, exitCode);
        Assert.Contains("SyntaxError", error, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task DownloadFile_Script_Reassembles_The_File_And_Checks_Size_And_SHA256(int size)
    {
        var file = new byte[size];
        Random.Shared.NextBytes(file);

        var run = await _host.RunGrpcAsync(DownloadScript, DownloadStream("videos/clip.bin", file));

        Assert.All(run.Tests, t => Assert.True(t.Passed, $"{t.Name}: {t.Message}"));
        Assert.Equal(4, run.Tests.Count);
        var written = await File.ReadAllBytesAsync(Path.Combine(_host.Folder, "filetransfer-kreya", "clip.bin"), TestTimeout.Token);
        Assert.Equal(TempStorage.Sha256(file), TempStorage.Sha256(written));
        Assert.Contains(run.Traces, t => t.Contains($"Wrote {size} bytes", StringComparison.Ordinal) && t.Contains(Convert.ToHexStringLower(SHA256.HashData(file)), StringComparison.Ordinal));
        Assert.Single(run.Previews);
    }

    [Fact]
    public async Task DownloadFile_Script_Previews_The_Beginning_Of_A_Text_File()
    {
        var text = "<p>line one</p>\n" + string.Concat(Enumerable.Repeat("more text ", 2000)) + "the end";

        var run = await _host.RunGrpcAsync(DownloadScript, DownloadStream("notes.txt", System.Text.Encoding.UTF8.GetBytes(text)));

        var preview = Assert.Single(run.Previews);
        Assert.Contains("&lt;p&gt;line one&lt;/p&gt;", preview, StringComparison.Ordinal);
        Assert.Contains("first 4096 bytes", preview, StringComparison.Ordinal);
        Assert.DoesNotContain("the end", preview, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("corrupt", "SHA-256 matches the metadata")]
    [InlineData("short", "Every byte of the file arrived|SHA-256 matches the metadata")]
    [InlineData("chunk-first", "The first message is the only metadata message")]
    [InlineData("two-metadata", "The first message is the only metadata message")]
    public async Task DownloadFile_Script_Fails_The_Checks_A_Broken_Stream_Breaks(string breakage, string failingTests)
    {
        var failing = failingTests.Split('|');
        var file = new byte[(2 * ServerChunk) + 10];
        Random.Shared.NextBytes(file);
        var stream = DownloadStream("data.bin", file).ToList();
        switch (breakage)
        {
            case "corrupt":
                var chunk = DownloadFileResponse.Parser.ParseJson(stream[2]).Chunk.ToByteArray();
                chunk[7] ^= 0xFF;
                stream[2] = JsonFormatter.Default.Format(new DownloadFileResponse { Chunk = ByteString.CopyFrom(chunk) });
                break;
            case "short":
                stream.RemoveAt(stream.Count - 1);
                break;
            case "chunk-first":
                (stream[0], stream[1]) = (stream[1], stream[0]);
                break;
            default:
                stream.Add(stream[0]);
                break;
        }

        var run = await _host.RunGrpcAsync(DownloadScript, stream);

        Assert.All(failing, name => Assert.False(run.Test(name).Passed, name));
        Assert.All(run.Tests.Where(t => !failing.Contains(t.Name)), t => Assert.True(t.Passed, $"{t.Name}: {t.Message}"));
        Assert.Equal(4, run.Tests.Count);
    }

    [Fact]
    public async Task DownloadFile_Script_Reports_A_Failed_Call_And_Writes_Nothing_More()
    {
        var run = await _host.RunGrpcAsync(DownloadScript, [], statusCode: 5);

        Assert.False(Assert.Single(run.Tests).Passed);
        Assert.False(Directory.Exists(Path.Combine(_host.Folder, "filetransfer-kreya")));
    }

    [Theory]
    [InlineData("../../escaped.txt", "escaped.txt")]
    [InlineData("..\\..\\escaped.txt", "escaped.txt")]
    [InlineData("..", "download.bin")]
    [InlineData("", "download.bin")]
    public async Task DownloadFile_Script_Writes_Only_Inside_Its_Folder_Whatever_Name_The_Server_Sends(string name, string expected)
    {
        var run = await _host.RunGrpcAsync(DownloadScript, DownloadStream(name, "abc"u8.ToArray()));

        Assert.All(run.Tests, t => Assert.True(t.Passed, $"{t.Name}: {t.Message}"));
        Assert.Equal([expected], Directory.GetFiles(Path.Combine(_host.Folder, "filetransfer-kreya")).Select(Path.GetFileName));
        Assert.Equal(["filetransfer-kreya", "messages.json", "runner.mjs", "script.mjs"], Directory.EnumerateFileSystemEntries(_host.Folder).Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task UploadFile_Script_Gives_DeleteFile_The_Stored_ETag_As_If_Match()
    {
        const string ETag = "\"8dd2f1c3a9b4e51\"";
        var answer = new UploadFileResponse { Metadata = new FileMetadata { FileName = KreyaProject.Environment["grpc_upload_name"], Size = 28, Etag = ETag } };

        var run = await _host.RunGrpcAsync(Path.Combine("gRPC", "UploadFile.js"), [JsonFormatter.Default.Format(answer)]);

        Assert.True(run.Test("Status is OK").Passed);
        var delete = DeleteFileRequest.Parser.ParseJson(KreyaProject.Render(Path.Combine("gRPC", "DeleteFile-request.json"), run.Variables));
        Assert.Equal(KreyaProject.Environment["grpc_upload_name"], delete.FileName);
        Assert.Equal(ETag, delete.IfMatch);
    }

    [Fact]
    public async Task ListFiles_Script_Gives_The_Next_Request_The_Page_Token_Until_The_Last_Page()
    {
        var listScript = Path.Combine("gRPC", "ListFiles.js");
        var request = Path.Combine("gRPC", "ListFiles-request.json");
        var page = new ListFilesResponse { NextPageToken = "b2Zmc2V0OjI=\"x\"" };
        page.Files.Add(new FileMetadata { FileName = "a.txt", Size = 1, LastModified = Timestamp.FromDateTimeOffset(DateTimeOffset.UnixEpoch) });

        var first = await _host.RunGrpcAsync(listScript, [JsonFormatter.Default.Format(page)]);
        var last = await _host.RunGrpcAsync(listScript, [JsonFormatter.Default.Format(new ListFilesResponse())]);
        var failed = await _host.RunGrpcAsync(listScript, [], statusCode: 3);

        Assert.Equal(page.NextPageToken, ListFilesRequest.Parser.ParseJson(KreyaProject.Render(request, first.Variables)).PageToken);
        Assert.Equal(2, ListFilesRequest.Parser.ParseJson(KreyaProject.Render(request, first.Variables)).PageSize);
        Assert.Equal("", ListFilesRequest.Parser.ParseJson(KreyaProject.Render(request, last.Variables)).PageToken);
        Assert.False(failed.Variables.ContainsKey("list_page_token"));
        Assert.False(failed.Test("Status is OK").Passed);
    }

    public void Dispose() => _host.Dispose();

    /// <summary>What the server streams for a download: the metadata, then the file in 32 KiB chunks, each as proto3 JSON.</summary>
    private static IEnumerable<string> DownloadStream(string name, byte[] file)
    {
        var metadata = new FileMetadata
        {
            FileName = name,
            ContentType = "application/octet-stream",
            Size = file.Length,
            LastModified = Timestamp.FromDateTimeOffset(DateTimeOffset.UnixEpoch),
            Etag = "\"1\"",
            Sha256 = ByteString.CopyFrom(SHA256.HashData(file)),
        };
        yield return JsonFormatter.Default.Format(new DownloadFileResponse { Metadata = metadata });
        for (var offset = 0; offset < file.Length; offset += ServerChunk)
        {
            var chunk = file.AsMemory(offset, Math.Min(ServerChunk, file.Length - offset));
            yield return JsonFormatter.Default.Format(new DownloadFileResponse { Chunk = ByteString.CopyFrom(chunk.Span) });
        }
    }
}
