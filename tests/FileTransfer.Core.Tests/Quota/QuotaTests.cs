using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Quota;

/// <summary>Quotas on the local disk: reserved before any byte is stored, exact under concurrency, durable, rebuilt by a scan.</summary>
public sealed class QuotaTests : IDisposable
{
    private static CancellationToken Token => TestTimeout.Token;

    private readonly TempFolder _root = new();

    public void Dispose() => _root.Dispose();

    [Fact]
    public async Task Of_Two_Concurrent_Uploads_That_Together_Pass_The_Quota_Exactly_One_Is_Refused_And_Nothing_Of_It_Is_Visible()
    {
        var (files, quotas) = Open(maxBytes: 1000);

        for (var round = 0; round < 5; round++)
        {
            await using var first = await Task.Run(() => files.BeginUploadAsync(TestCallers.Full, new UploadRequest($"q/a{round}.bin") { DeclaredLength = 600 }, Token).AsTask());
            var second = await Record.ExceptionAsync(async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest($"q/b{round}.bin") { DeclaredLength = 600 }, Token));

            Assert.Equal(ErrorReason.QuotaExceeded, Assert.IsType<FileTransferException>(second).Reason);
            Assert.Equal(1000, ((FileTransferException)second).Quota!.MaxBytes);
        }

        var racing = await Task.WhenAll(Enumerable.Range(0, 8).Select(i => Task.Run(async () =>
        {
            try
            {
                await files.UploadAsync(new UploadRequest($"q/r{i}.bin") { DeclaredLength = 300 }, TestBytes.Random(300));
                return true;
            }
            catch (FileTransferException ex) when (ex.Reason == ErrorReason.QuotaExceeded)
            {
                return false;
            }
        })));

        Assert.Equal(3, racing.Count(stored => stored));
        Assert.Equal(3, Directory.GetFiles(_root.PathOf("q")).Length);
        var usage = await quotas.UsageAsync(TestCallers.Full, "q/", Token);
        Assert.Equal((900, 3L), (usage.UsedBytes, usage.UsedFiles));
    }

    [Fact]
    public async Task An_Upload_Of_Unknown_Length_Is_Refused_As_Soon_As_Its_Bytes_Pass_The_Quota()
    {
        var (files, quotas) = Open(maxBytes: 10 * 1024 * 1024);
        await files.UploadAsync(new UploadRequest("q/first.bin"), TestBytes.Random(6 * 1024 * 1024));

        await using var upload = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("q/second.bin"), Token);
        await upload.AppendAsync(TestBytes.Random(4 * 1024 * 1024), Token);
        var refused = await Assert.ThrowsAsync<FileTransferException>(async () => await upload.AppendAsync(new byte[1], Token));

        Assert.Equal(ErrorReason.QuotaExceeded, refused.Reason);
        await upload.DisposeAsync();
        Assert.False(File.Exists(_root.PathOf("q/second.bin")));
        Assert.Equal(6 * 1024 * 1024, (await quotas.UsageAsync(TestCallers.Full, "q/", Token)).UsedBytes);
    }

    [Fact]
    public async Task A_Replace_Counts_The_Difference_A_Delete_Gives_Back_And_An_Abort_Releases()
    {
        var (files, quotas) = Open(maxBytes: 1000, maxFiles: 2);
        await files.UploadAsync(new UploadRequest("q/a.bin"), TestBytes.Random(400));
        await files.UploadAsync(new UploadRequest("q/a.bin"), TestBytes.Random(100));
        Assert.Equal((100, 1L), await UsedAsync(quotas));

        await using (var aborted = await files.BeginUploadAsync(TestCallers.Full, new UploadRequest("q/b.bin") { DeclaredLength = 900 }, Token))
        {
            Assert.Equal((1000, 2L), await UsedAsync(quotas));
        }

        Assert.Equal((100, 1L), await UsedAsync(quotas));
        await files.UploadAsync(new UploadRequest("q/b.bin"), TestBytes.Random(10));
        var third = await Assert.ThrowsAsync<FileTransferException>(() => files.UploadAsync(new UploadRequest("q/c.bin"), TestBytes.Random(1)));
        Assert.Equal(ErrorReason.QuotaExceeded, third.Reason);
        await files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, "q/a.bin", Preconditions.None, Token);
        Assert.Equal((10, 1L), await UsedAsync(quotas));
    }

    [Fact]
    public async Task The_Record_Survives_A_Restart_And_A_Missing_One_Is_Rebuilt_By_A_Scan_With_The_Unfinished_Sessions()
    {
        var (files, _) = Open(maxBytes: 10_000);
        await files.UploadAsync(new UploadRequest("q/a.bin"), TestBytes.Random(1234));
        await files.UploadAsync(new UploadRequest("elsewhere.bin"), TestBytes.Random(99));

        var (_, restarted) = Open(maxBytes: 10_000);
        Assert.Equal((1234, 1L), await UsedAsync(restarted));

        var (backend, store) = LocalBackends.CreateWithSessions(_root.Path);
        var sessions = new UploadSessions(Operations.Over(backend, quotas: Quotas(backend, store, 10_000)), store, Options.Create(new UploadSessionOptions()), TimeProvider.System, NullLogger<UploadSessions>.Instance);
        await sessions.CreateAsync(new UploadRequest("q/session.bin") { DeclaredLength = 500 }, TestCallers.Full, null, Token);
        File.Delete(Directory.GetFiles(_root.PathOf(".ft-meta/quotas"), "*.json").Single());

        var (_, rebuilt) = Open(maxBytes: 10_000);
        Assert.Equal((1734, 2L), await UsedAsync(rebuilt));
    }

    private static async Task<(long, long)> UsedAsync(Core.Quotas quotas)
    {
        var usage = await quotas.UsageAsync(TestCallers.Full, "q/", Token);
        return (usage.UsedBytes, usage.UsedFiles);
    }

    private (FileOperations Files, Core.Quotas Quotas) Open(long maxBytes, long? maxFiles = null)
    {
        var (backend, store) = LocalBackends.CreateWithSessions(_root.Path);
        var quotas = Quotas(backend, store, maxBytes, maxFiles);
        return (Operations.Over(backend, quotas: quotas), quotas);
    }

    private Core.Quotas Quotas(LocalStorageBackend backend, LocalUploadSessionStore sessions, long maxBytes, long? maxFiles = null) => new(
        backend,
        LocalBackends.QuotaStore(_root.Path),
        sessions,
        Options.Create(new QuotaOptions { new QuotaRule { Path = "q/", MaxBytes = maxBytes, MaxFiles = maxFiles } }),
        TimeProvider.System,
        NullLogger<Core.Quotas>.Instance);
}
