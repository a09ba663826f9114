using FileTransfer.Protos.V1;
using Google.Protobuf.Reflection;

namespace FileTransfer.Server.Tests.Contracts;

/// <summary>
/// Clients in other languages compile protos/filetransfer/v1/file_service.proto as it is:
/// these tests fail if a name or field number they depend on changes.
/// </summary>
public sealed class ProtoContractTests
{
    private static readonly FileDescriptor File = FileServiceReflection.Descriptor;

    [Fact]
    public void Package_And_Service_Methods_Keep_Their_Names_And_Shapes()
    {
        Assert.Equal("filetransfer.v1", File.Package);
        var service = Assert.Single(File.Services);
        Assert.Equal("FileService", service.Name);

        var download = service.FindMethodByName("DownloadFile");
        Assert.True(download.IsServerStreaming);
        Assert.False(download.IsClientStreaming);
        Assert.Equal("DownloadFileRequest", download.InputType.Name);
        Assert.Equal("DownloadFileResponse", download.OutputType.Name);

        var upload = service.FindMethodByName("UploadFile");
        Assert.True(upload.IsClientStreaming);
        Assert.False(upload.IsServerStreaming);

        Assert.Equal("FileMetadata", service.FindMethodByName("GetFileInfo").OutputType.Name);
        Assert.Equal("ListFilesResponse", service.FindMethodByName("ListFiles").OutputType.Name);
        Assert.NotNull(service.FindMethodByName("DeleteFile"));
    }

    [Theory]
    [InlineData("DownloadFileRequest", "file_name", 1)]
    [InlineData("DownloadFileRequest", "offset", 2)]
    [InlineData("DownloadFileRequest", "limit", 3)]
    [InlineData("DownloadFileRequest", "if_match", 4)]
    [InlineData("DownloadFileResponse", "metadata", 1)]
    [InlineData("DownloadFileResponse", "chunk", 2)]
    [InlineData("FileMetadata", "file_name", 1)]
    [InlineData("FileMetadata", "content_type", 2)]
    [InlineData("FileMetadata", "size", 3)]
    [InlineData("UploadFileRequest", "metadata", 1)]
    [InlineData("UploadFileRequest", "chunk", 2)]
    [InlineData("FileMetadata", "last_modified", 4)]
    [InlineData("FileMetadata", "etag", 5)]
    [InlineData("FileMetadata", "sha256", 6)]
    [InlineData("FileMetadata", "overwrite", 7)]
    [InlineData("GetFileInfoRequest", "file_name", 1)]
    [InlineData("ListFilesRequest", "prefix", 1)]
    [InlineData("ListFilesRequest", "page_size", 2)]
    [InlineData("ListFilesRequest", "page_token", 3)]
    [InlineData("ListFilesResponse", "files", 1)]
    [InlineData("ListFilesResponse", "next_page_token", 2)]
    [InlineData("UploadFileResponse", "metadata", 1)]
    [InlineData("DeleteFileRequest", "file_name", 1)]
    [InlineData("DeleteFileRequest", "if_match", 2)]
    public void Fields_Keep_Their_Numbers(string message, string field, int number)
    {
        var descriptor = File.MessageTypes.Single(m => m.Name == message);
        Assert.Equal(number, descriptor.FindFieldByName(field).FieldNumber);
    }

    [Fact]
    public void Download_Response_Carries_Metadata_Or_Chunk_In_One_Oneof()
    {
        var oneof = Assert.Single(DownloadFileResponse.Descriptor.Oneofs);
        Assert.Equal("data", oneof.Name);
        Assert.Equal(["metadata", "chunk"], oneof.Fields.Select(f => f.Name));
    }
}
