using System.Diagnostics;
using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Rest;

/// <summary>
/// A real full disk: a 1 MiB tmpfs mounted inside the storage root (needs root or password-less
/// sudo, as on CI and in the dev container). ENOSPC arrives mid-stream, not from a fake.
/// </summary>
public sealed class DiskFullTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();
    private readonly string _mount;

    public DiskFullTests()
    {
        _mount = _factory.Storage.PathOf("small-volume");
        Directory.CreateDirectory(_mount);
        Run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", _mount);
        _factory.Storage.Write("small-volume/existing.bin", [1, 2, 3]);
    }

    [Fact]
    public async Task Disk_Filling_Up_Mid_Stream_Is_507_And_Keeps_The_Previous_Version()
    {
        using var client = _factory.CreateClient();
        using var request = new HttpRequestMessage(HttpMethod.Put, "/api/files/small-volume/existing.bin")
        {
            Content = new StreamContent(new MemoryStream(TestData.RandomBytes(3_000_000))),
        };
        request.Headers.TransferEncodingChunked = true;

        using var response = await client.SendAsync(request, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.InsufficientStorage);
        Assert.DoesNotContain(_factory.Storage.RootPath, problem.ToString(), StringComparison.Ordinal);
        Assert.Equal(["existing.bin"], Directory.GetFiles(_mount).Select(Path.GetFileName));
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(Path.Combine(_mount, "existing.bin"), TestTimeout.Token));
    }

    public void Dispose()
    {
        Run("umount", _mount);
        _factory.Dispose();
    }

    internal static void Run(string command, params string[] arguments)
    {
        var asRoot = Environment.UserName == "root";
        var start = new ProcessStartInfo(asRoot ? command : "sudo", asRoot ? arguments : ["-n", command, .. arguments])
        {
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"'{command} {string.Join(' ', arguments)}' failed (this test needs root or password-less sudo): {error}");
        }
    }
}
