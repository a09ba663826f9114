using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests;

/// <summary>
/// The library against a server on S3 (the real Ceph RGW) that redirects downloads to presigned URLs
/// of the store: a REST download follows the 307 to the exact bytes, whole and resumed from a part.
/// </summary>
public sealed class S3RedirectTests(S3RedirectingServer fixture) : IClassFixture<S3RedirectingServer>, IDisposable
{
    private readonly TempStorage _local = new();

    [Fact]
    public async Task A_Rest_Download_Follows_The_Redirect_To_The_Exact_Bytes()
    {
        var source = RandomNumberGenerator.GetBytes((3 * 1024 * 1024) + 12_345);
        using var client = Clients.For(fixture.Server, FileTransferProtocol.Rest);
        await client.UploadAsync("redirected/whole.bin", new MemoryStream(source), cancellationToken: TestTimeout.Token);

        using var copy = new MemoryStream();
        var downloaded = await client.DownloadAsync("redirected/whole.bin", copy, cancellationToken: TestTimeout.Token);

        Assert.Equal(SHA256.HashData(source), SHA256.HashData(copy.ToArray()));
        Assert.Equal(source.Length, downloaded.Length);
    }

    [Fact]
    public async Task A_Rest_Download_To_A_File_Resumes_Its_Part_Through_The_Redirect()
    {
        var source = RandomNumberGenerator.GetBytes(1_000_000);
        using var client = Clients.For(fixture.Server, FileTransferProtocol.Rest);
        await client.UploadAsync("redirected/resume.bin", new MemoryStream(source), cancellationToken: TestTimeout.Token);
        var path = _local.PathOf("resume.bin");
        await File.WriteAllBytesAsync(path + ".part", source[..400_000], TestTimeout.Token);
        await File.WriteAllTextAsync(path + ".part.etag", (await client.GetInfoAsync("redirected/resume.bin", TestTimeout.Token)).ETag, TestTimeout.Token);

        var result = await client.DownloadToFileAsync("redirected/resume.bin", path, cancellationToken: TestTimeout.Token);

        Assert.Equal(400_000, result.ResumedAt);
        Assert.Equal(SHA256.HashData(source), SHA256.HashData(await File.ReadAllBytesAsync(path, TestTimeout.Token)));
    }

    public void Dispose() => _local.Dispose();
}
