using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests;

/// <summary>
/// Connections reset in the middle of a transfer (a TCP relay that cuts after N bytes): downloads
/// resume from where they stopped, uploads fail cleanly and the server keeps nothing of them.
/// </summary>
public sealed class ConnectionCutTests : IDisposable
{
    private const int Size = (3 * 1024 * 1024) + 12_345;
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    public static TheoryData<FileTransferProtocol> Protocols() => [FileTransferProtocol.Rest, FileTransferProtocol.Grpc];

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Download_Cut_In_The_Middle_Resumes_Where_It_Stopped_And_Verifies(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("cut/big.bin", Size);
        var progress = new RecordingProgress();
        // The cut waits until the client has taken in half a megabyte, however busy the machine is.
        await using var proxy = new CuttingProxy(Clients.AddressFor(_server, protocol), cutAfterBytes: 1_000_000, cutDownstream: true,
            cutWhen: () => progress.BytesDone >= 500_000);
        using var client = Clients.For(proxy.Address, protocol);
        using var copy = new MemoryStream();

        var result = await client.DownloadAsync("cut/big.bin", copy, progress: progress, cancellationToken: TestTimeout.Token);

        Assert.Equal(SHA256.HashData(source), SHA256.HashData(copy.ToArray()));
        Assert.True(result.Verified);
        Assert.Equal(1, result.Retries);
        Assert.Equal(DownloadRestartReason.None, result.Restarted);
        Assert.Equal(2, proxy.Connections);
        // Never back to zero, and the second connection carried only the rest of the file.
        var reports = progress.Reports;
        Assert.Equal(reports.Select(r => r.BytesDone).Order(), reports.Select(r => r.BytesDone));
        Assert.True(proxy.DownstreamBytes - 1_000_000 < Size - 400_000, $"{proxy.DownstreamBytes} bytes crossed for a {Size}-byte file");
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Download_To_File_Cut_For_Good_Keeps_The_Part_And_The_Next_Call_Resumes_It(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("cut/kept.bin", Size);
        var path = _local.PathOf("kept.bin");
        var progress = new RecordingProgress();
        await using (var proxy = new CuttingProxy(Clients.AddressFor(_server, protocol), cutAfterBytes: 1_000_000, cutDownstream: true, refuseAfterCut: true,
            cutWhen: () => progress.BytesDone >= 100_000))
        {
            using var broken = Clients.For(proxy.Address, protocol, o => o.MaxRetries = 2);
            var error = await Assert.ThrowsAsync<FileTransferException>(() => broken.DownloadToFileAsync("cut/kept.bin", path, progress, TestTimeout.Token));

            Assert.Equal(FileTransferErrorKind.ConnectionLost, error.Kind);
            Assert.Contains(".part is kept", error.Message, StringComparison.Ordinal);
        }

        var kept = new FileInfo(path + ".part").Length;
        Assert.InRange(kept, 100_000, 1_000_000);
        Assert.Equal(source[..(int)kept], (await File.ReadAllBytesAsync(path + ".part", TestTimeout.Token)));
        Assert.True(File.Exists(path + ".part.etag"));

        using var client = Clients.For(_server, protocol);
        var result = await client.DownloadToFileAsync("cut/kept.bin", path, cancellationToken: TestTimeout.Token);

        Assert.Equal(kept, result.ResumedAt);
        Assert.Equal(source, await File.ReadAllBytesAsync(path, TestTimeout.Token));
        Assert.Equal(["kept.bin"], _local.Files());
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_Cut_In_The_Middle_Fails_As_ConnectionLost_And_The_Server_Keeps_The_Old_Version(FileTransferProtocol protocol)
    {
        var old = _server.Storage.WriteRandom("cut/up.bin", 1000);
        await using var proxy = new CuttingProxy(Clients.AddressFor(_server, protocol), cutAfterBytes: 1_000_000, cutDownstream: false);
        using var client = Clients.For(proxy.Address, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.UploadAsync("cut/up.bin", new MemoryStream(RandomNumberGenerator.GetBytes(Size)), cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.ConnectionLost, error.Kind);
        // The server notices the reset and removes its temporary file; the old version stays.
        await WaitUntilAsync(() => StoredFiles().SequenceEqual(["cut/up.bin"]));
        Assert.Equal(["cut/up.bin"], StoredFiles());
        Assert.Equal(old, await File.ReadAllBytesAsync(_server.Storage.PathOf("cut/up.bin"), TestTimeout.Token));
    }

    // Everything but the digest sidecars the server keeps under .ft-meta/.
    private IEnumerable<string> StoredFiles() => _server.Storage.Files().Where(f => !f.StartsWith(".ft-meta/", StringComparison.Ordinal));

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        for (var i = 0; i < 100 && !condition(); i++)
        {
            await Task.Delay(50, TestTimeout.Token);
        }
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
