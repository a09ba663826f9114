using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests;

/// <summary>
/// <see cref="UploadOptions.ResumeStateDirectory"/>: an upload cut off mid-way, run again, continues
/// from the offset the server kept, on both protocols, and the stored file has the right SHA-256.
/// </summary>
public sealed class ResumableUploadTests : IDisposable
{
    private const int Size = 6 * 1024 * 1024;
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task An_Upload_Cut_Off_Continues_From_The_Server_Offset_On_The_Next_Run(FileTransferProtocol protocol)
    {
        var source = _local.WriteRandom("big.bin", Size);
        var options = new UploadOptions { ResumeStateDirectory = _local.PathOf("state") };

        // The only connection that proxy lets through is cut after 2 MB of the upload.
        await using var proxy = new CuttingProxy(Clients.AddressFor(_server, protocol), cutAfterBytes: 2_000_000, cutDownstream: false);
        using (var cut = Clients.For(proxy.Address, protocol, o => o.MaxRetries = 0))
        {
            await Assert.ThrowsAsync<FileTransferException>(() => cut.UploadFileAsync(_local.PathOf("big.bin"), "resume/big.bin", options, cancellationToken: TestTimeout.Token));
        }

        Assert.DoesNotContain("resume/big.bin", _server.Storage.VisibleFiles());
        Assert.Single(Directory.GetFiles(_local.PathOf("state")));
        var progress = new RecordingProgress();
        using var client = Clients.For(proxy.Address, protocol);

        var result = await client.UploadFileAsync(_local.PathOf("big.bin"), "resume/big.bin", options, progress, TestTimeout.Token);

        Assert.InRange(result.ResumedAt, 256 * 1024, 2_000_000);
        var uploading = progress.Reports.Where(r => r.Phase == TransferPhase.Uploading).ToList();
        Assert.Equal(result.ResumedAt, uploading[0].BytesDone);
        Assert.All(uploading, r => Assert.Equal(result.ResumedAt, r.StartedAt));
        Assert.Equal(SHA256.HashData(source), result.File.Sha256);
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("resume/big.bin")));
        Assert.Empty(Directory.GetFiles(_local.PathOf("state")));
    }

    [Fact]
    public async Task An_Upload_The_Server_No_Longer_Has_Starts_Again()
    {
        var source = _local.WriteRandom("gone.bin", Size);
        var options = new UploadOptions { ResumeStateDirectory = _local.PathOf("state") };
        await using var proxy = new CuttingProxy(Clients.AddressFor(_server, FileTransferProtocol.Rest), cutAfterBytes: 2_000_000, cutDownstream: false);
        using (var cut = Clients.For(proxy.Address, FileTransferProtocol.Rest, o => o.MaxRetries = 0))
        {
            await Assert.ThrowsAsync<FileTransferException>(() => cut.UploadFileAsync(_local.PathOf("gone.bin"), "resume/gone.bin", options, cancellationToken: TestTimeout.Token));
        }

        // The remembered upload is unknown to the server (expired and swept, say).
        var state = Assert.Single(Directory.GetFiles(_local.PathOf("state")));
        await File.WriteAllTextAsync(state, "AAAAAAAAAAAAAAAAAAAAAA", TestTimeout.Token);
        using var client = Clients.For(proxy.Address, FileTransferProtocol.Rest);

        var again = await client.UploadFileAsync(_local.PathOf("gone.bin"), "resume/gone.bin", options, cancellationToken: TestTimeout.Token);

        Assert.Equal(0, again.ResumedAt);
        Assert.Equal(source, File.ReadAllBytes(_server.Storage.PathOf("resume/gone.bin")));
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }
}
