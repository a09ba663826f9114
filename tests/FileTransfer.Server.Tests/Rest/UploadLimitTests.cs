using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

public sealed class UploadLimitTests
{
    [Fact]
    public async Task Declared_Length_Over_The_Limit_Is_413_Before_Any_Byte_Is_Stored()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFileSizeBytes", "1000");
        factory.Storage.Write("limit/f.bin", [7]);
        using var client = factory.CreateClient();

        using var response = await client.PutAsync("/api/files/limit/f.bin", new ByteArrayContent(TestData.RandomBytes(1001)), TestTimeout.Token);
        using var atLimit = await client.PutAsync("/api/files/limit/ok.bin", new ByteArrayContent(TestData.RandomBytes(1000)), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Equal([7], await File.ReadAllBytesAsync(factory.Storage.PathOf("limit/f.bin"), TestTimeout.Token));
        Assert.Equal(HttpStatusCode.Created, atLimit.StatusCode);
    }

    [Fact]
    public async Task Chunked_Body_Over_The_Limit_Is_413_While_Streaming_And_Leaves_Nothing()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFileSizeBytes", "300000");
        using var client = factory.CreateClient();
        var content = new StreamContent(new MemoryStream(TestData.RandomBytes(1_000_000)));

        using var request = new HttpRequestMessage(HttpMethod.Put, "/api/files/limit/new/folder/f.bin") { Content = content };
        request.Headers.TransferEncodingChunked = true;
        using var response = await client.SendAsync(request, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Empty(factory.Storage.Files());
        Assert.False(Directory.Exists(factory.Storage.PathOf("limit")));
    }

    [Fact]
    public async Task Declared_Length_Beyond_Free_Space_Is_507_At_Once()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFileSizeBytes", long.MaxValue.ToString(System.Globalization.CultureInfo.InvariantCulture));
        var free = new DriveInfo(factory.Storage.RootPath).AvailableFreeSpace;
        using var client = factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Put, "/api/files/huge.bin") { Content = new ByteArrayContent([]) };
        request.Content.Headers.ContentLength = free + (1L << 30);

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.InsufficientStorage);
        Assert.Empty(factory.Storage.Files());
    }
}
