using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The Kreya project's gRPC operations sent to real Kestrel the way Kreya sends them: request files
/// rendered from the environment, user variables carried from one operation's answer to the next as
/// its scripts set them, and the project's own authentication header.
/// </summary>
public sealed class KreyaGrpcReplayTests : IDisposable
{
    private static readonly JsonParser Parser = new(JsonParser.Settings.Default.WithIgnoreUnknownFields(false));
    private readonly KestrelFactory _server = new();
    private readonly Dictionary<string, string> _variables = [];
    private readonly FileService.FileServiceClient _client;
    private readonly Metadata _auth;

    public KreyaGrpcReplayTests()
    {
        var env = new Dictionary<string, string> { ["api_key"] = FileTransferFactory.TestKey };
        var (name, value) = KreyaProject.Authorization("grpc", env);
        _auth = new Metadata { { name.ToLowerInvariant(), value } };
        _client = GrpcClients.For(_server, apiKey: null);
        _server.Storage.Write(KreyaProject.Environment["file_name"], "hello\n"u8.ToArray());
    }

    [Fact]
    public async Task Upload_Info_List_Download_And_Delete_Replay_As_Kreya_Sends_Them()
    {
        var uploadName = KreyaProject.Environment["grpc_upload_name"];

        // UploadFile: metadata, then the chunks; the script keeps the ETag for DeleteFile.
        using (var upload = _client.UploadFile(_auth, cancellationToken: TestTimeout.Token))
        {
            foreach (var file in Requests("UploadFile"))
            {
                await upload.RequestStream.WriteAsync(Parser.Parse<UploadFileRequest>(file), TestTimeout.Token);
            }

            await upload.RequestStream.CompleteAsync();
            var stored = (await upload.ResponseAsync).Metadata;
            Assert.Equal("Hello from Kreya over gRPC!\n", await File.ReadAllTextAsync(_server.Storage.PathOf(uploadName), TestTimeout.Token));
            _variables["grpc_upload_etag"] = JsonEncodedText.Encode(stored.Etag).ToString();
        }

        var info = await _client.GetFileInfoAsync(Parser.Parse<GetFileInfoRequest>(Requests("GetFileInfo").Single()), _auth, cancellationToken: TestTimeout.Token);
        Assert.Equal(6, info.Size);

        // ListFiles: the script feeds each next_page_token back until the last page.
        var listed = new List<string>();
        do
        {
            var page = await _client.ListFilesAsync(Parser.Parse<ListFilesRequest>(Requests("ListFiles").Single()), _auth, cancellationToken: TestTimeout.Token);
            listed.AddRange(page.Files.Select(f => f.FileName));
            _variables["list_page_token"] = JsonEncodedText.Encode(page.NextPageToken).ToString();
        }
        while (_variables["list_page_token"].Length > 0 && listed.Count < 100);

        Assert.Equal([KreyaProject.Environment["file_name"], uploadName], listed);

        using var download = _client.DownloadFile(Parser.Parse<DownloadFileRequest>(Requests("DownloadFile").Single()), _auth, cancellationToken: TestTimeout.Token);
        var messages = await download.ResponseStream.ReadAllAsync(TestTimeout.Token).ToListAsync(TestTimeout.Token);
        Assert.Equal("hello\n", string.Concat(messages.Skip(1).Select(m => m.Chunk.ToStringUtf8())));

        await _client.DeleteFileAsync(Parser.Parse<DeleteFileRequest>(Requests("DeleteFile").Single()), _auth, cancellationToken: TestTimeout.Token);
        Assert.False(File.Exists(_server.Storage.PathOf(uploadName)));
    }

    [Fact]
    public async Task Delete_Replayed_After_Someone_Changed_The_File_Deletes_Nothing()
    {
        var uploadName = KreyaProject.Environment["grpc_upload_name"];
        _server.Storage.Write(uploadName, [1, 2, 3]);
        _variables["grpc_upload_etag"] = JsonEncodedText.Encode("\"0-0\"").ToString();

        var error = await Assert.ThrowsAsync<RpcException>(async () => await _client.DeleteFileAsync(Parser.Parse<DeleteFileRequest>(Requests("DeleteFile").Single()), _auth, cancellationToken: TestTimeout.Token));

        Assert.Equal(StatusCode.FailedPrecondition, error.StatusCode);
        Assert.True(File.Exists(_server.Storage.PathOf(uploadName)));
    }

    private IEnumerable<string> Requests(string operation) =>
        KreyaProject.FilesOf(Path.Combine("gRPC", operation + ".krop"))
            .Where(f => f.EndsWith(".json", StringComparison.Ordinal))
            .Select(f => KreyaProject.Render(f, _variables));

    public void Dispose() => _server.Dispose();
}
