using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

public sealed class MultipartUploadTests
{
    [Fact]
    public async Task Several_Files_In_One_Form_Are_Stored_With_Their_Names_And_Digests()
    {
        using var factory = new FileTransferFactory();
        var first = TestData.RandomBytes(200_000);
        var second = TestData.RandomBytes(1);
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(first), "file", "first.bin" },
            { new ByteArrayContent(second), "file", "second é.txt" },
            { new StringContent("ignored"), "comment" },
        };
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=forms/batch", form, TestTimeout.Token);
        var stored = await response.Content.ReadFromJsonAsync<JsonElement[]>(TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(["forms/batch/first.bin", "forms/batch/second é.txt"], stored!.Select(s => s.GetProperty("name").GetString()));
        Assert.Equal(first, await File.ReadAllBytesAsync(factory.Storage.PathOf("forms/batch/first.bin"), TestTimeout.Token));
        Assert.Equal(second, await File.ReadAllBytesAsync(factory.Storage.PathOf("forms/batch/second é.txt"), TestTimeout.Token));
        Assert.Equal(Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(first)), stored![0].GetProperty("sha256").GetString());
    }

    [Fact]
    public async Task A_Bad_Part_Stores_None_Of_The_Files()
    {
        using var factory = new FileTransferFactory();
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "good.bin" },
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "..\\evil.bin" },
        };
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files", form, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Empty(factory.Storage.Files());
    }

    [Fact]
    public async Task A_Form_Without_A_File_Is_400_And_A_Non_Form_Body_Is_415()
    {
        using var factory = new FileTransferFactory();
        using var client = factory.CreateClient();
        using var noFile = new MultipartFormDataContent { { new StringContent("x"), "comment" } };

        using var empty = await client.PostAsync("/api/files", noFile, TestTimeout.Token);
        using var json = await client.PostAsync("/api/files", JsonContent.Create(new { a = 1 }), TestTimeout.Token);

        await Problems.AssertAsync(empty, HttpStatusCode.BadRequest);
        await Problems.AssertAsync(json, HttpStatusCode.UnsupportedMediaType);
    }

    [Fact]
    public async Task A_Part_Over_The_Size_Limit_Is_413_And_Nothing_Is_Stored()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFileSizeBytes", "5000");
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(100)), "file", "small.bin" },
            { new ByteArrayContent(TestData.RandomBytes(6000)), "file", "big.bin" },
        };
        form.Headers.ContentType = MediaTypeHeaderValue.Parse(form.Headers.ContentType!.ToString());
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files", form, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Empty(factory.Storage.Files());
    }
}
