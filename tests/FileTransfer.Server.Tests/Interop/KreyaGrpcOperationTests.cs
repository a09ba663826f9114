using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The gRPC operations of the Kreya project against the compiled contract: each names a real
/// method of <c>filetransfer.v1.FileService</c> with its streaming kind, and each request file is a
/// message of that method's request type, field by field, as Kreya would send it.
/// </summary>
public sealed class KreyaGrpcOperationTests
{
    // Unknown fields fail the parse: a misspelt or removed field must not pass as "ignored".
    private static readonly JsonParser StrictParser = new(JsonParser.Settings.Default.WithIgnoreUnknownFields(false));

    public static TheoryData<string> GrpcOperations => [.. KreyaProject.GrpcOperations];

    private static ServiceDescriptor FileService => Assert.Single(FileServiceReflection.Descriptor.Services, s => s.FullName == "filetransfer.v1.FileService");

    [Fact]
    public void Every_Rpc_Of_FileService_Has_An_Operation()
    {
        var named = KreyaProject.GrpcOperations.Select(o => KreyaProject.Load(o).GetProperty("details").GetProperty("methodFqn").GetString());

        Assert.Equal(
            FileService.Methods.Select(m => m.FullName).Order(StringComparer.Ordinal),
            named.Distinct().Order(StringComparer.Ordinal));
        Assert.Equal(12, FileService.Methods.Count); // the six transfers, the four resumable-upload calls, GetUsage and WatchEvents
    }

    [Theory]
    [MemberData(nameof(GrpcOperations))]
    public void Grpc_Operation_Names_A_Method_Of_The_Contract_With_Its_Streaming_Kind(string operationFile)
    {
        var operation = KreyaProject.Load(operationFile);
        var method = MethodOf(operationFile);

        var kind = (method.IsClientStreaming, method.IsServerStreaming) switch
        {
            (false, false) => "unary",
            (false, true) => "serverStreaming",
            (true, false) => "clientStreaming",
            (true, true) => "duplexStreaming",
        };
        Assert.Equal(kind, operation.GetProperty("operationType").GetString());

        // One request message, except where the client streams.
        var requests = operation.GetProperty("requests").GetArrayLength();
        Assert.True(method.IsClientStreaming ? requests >= 2 : requests == 1, $"{requests} request files");
    }

    [Theory]
    [MemberData(nameof(GrpcOperations))]
    public void Grpc_Request_Files_Parse_As_The_Methods_Request_Message(string operationFile)
    {
        var method = MethodOf(operationFile);

        foreach (var requestFile in RequestFiles(operationFile))
        {
            var message = StrictParser.Parse(KreyaProject.Render(requestFile), method.InputType);
            Assert.Equal(method.InputType, message.Descriptor);
        }
    }

    [Fact]
    public void Request_Parser_Rejects_A_Field_The_Contract_Does_Not_Have()
    {
        var descriptor = DownloadFileRequest.Descriptor;

        Assert.Throws<InvalidProtocolBufferException>(() => StrictParser.Parse("""{ "fileName": "a", "fileNmae": "b" }""", descriptor));
        Assert.Throws<InvalidProtocolBufferException>(() => StrictParser.Parse("""{ "offset": "ten" }""", descriptor));
    }

    [Fact]
    public void UploadFile_Sends_Metadata_First_Then_Chunks_Of_The_Declared_Size_And_SHA256()
    {
        var messages = RequestFiles(Path.Combine("gRPC", "UploadFile.krop"))
            .Select(f => UploadFileRequest.Parser.ParseJson(KreyaProject.Render(f)))
            .ToList();

        var metadata = messages[0].Metadata;
        Assert.Equal(UploadFileRequest.DataOneofCase.Metadata, messages[0].DataCase);
        Assert.Equal(KreyaProject.Environment["grpc_upload_name"], metadata.FileName);
        Assert.All(messages.Skip(1), m => Assert.Equal(UploadFileRequest.DataOneofCase.Chunk, m.DataCase));

        var bytes = messages.Skip(1).SelectMany(m => m.Chunk.ToByteArray()).ToArray();
        Assert.Equal(metadata.Size, bytes.Length);
        Assert.Equal(SHA256.HashData(bytes), metadata.Sha256.ToByteArray());
    }

    [Fact]
    public void Requests_Use_Only_User_Variables_That_A_Script_Sets()
    {
        var set = KreyaProject.Scripts.SelectMany(s => KreyaProject.UserVariablesSetBy(File.ReadAllText(Path.Combine(KreyaProject.Root, s)))).ToHashSet(StringComparer.Ordinal);
        var used = KreyaProject.Operations.SelectMany(KreyaProject.FilesOf)
            .Where(f => !f.EndsWith(".js", StringComparison.Ordinal))
            .SelectMany(f => KreyaProject.UserVariablesIn(File.ReadAllText(Path.Combine(KreyaProject.Root, f))))
            .ToList();

        Assert.NotEmpty(used);
        Assert.All(used, v => Assert.Contains(v, set));
    }

    private static MethodDescriptor MethodOf(string operationFile)
    {
        var fqn = KreyaProject.Load(operationFile).GetProperty("details").GetProperty("methodFqn").GetString()!;
        return Assert.Single(FileService.Methods, m => m.FullName == fqn);
    }

    private static IEnumerable<string> RequestFiles(string operationFile) =>
        KreyaProject.FilesOf(operationFile).Where(f => f.EndsWith(".json", StringComparison.Ordinal));
}
