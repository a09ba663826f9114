using FileTransfer.Core;
using FileTransfer.Storage.Local;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace FileTransfer.Server.Tests.Storage;

public sealed class StaleUploadSweeperTests
{
    [Fact]
    public void Removes_Temporary_Files_Idle_For_An_Hour_And_Keeps_Active_Ones()
    {
        using var factory = new FileTransferFactory();
        factory.Storage.Write("a/.ft-upload-old.tmp", [1]);
        factory.Storage.Write("a/.ft-upload-active.tmp", [1]);
        factory.Storage.Write("a/user-file.tmp", [1]);
        File.SetLastWriteTimeUtc(factory.Storage.PathOf("a/.ft-upload-old.tmp"), DateTime.UtcNow.AddHours(-2));
        File.SetLastWriteTimeUtc(factory.Storage.PathOf("a/user-file.tmp"), DateTime.UtcNow.AddHours(-2));
        var sweeper = factory.Services.GetServices<IHostedService>().OfType<StaleUploadSweeper>().Single();

        sweeper.Sweep();

        Assert.Equal(["a/.ft-upload-active.tmp", "a/user-file.tmp"], factory.Storage.Files());
    }

    [Fact]
    public async Task Keeps_The_Idle_Temporary_File_Of_An_Upload_Still_Open_And_Removes_It_Once_That_Upload_Ends()
    {
        using var factory = new FileTransferFactory();
        var files = factory.Services.GetRequiredService<FileOperations>();
        var sweeper = factory.Services.GetServices<IHostedService>().OfType<StaleUploadSweeper>().Single();

        // A multipart request's first part, sealed while the later parts are still arriving.
        await using (var upload = await files.BeginUploadAsync(Caller.ForKey("test", Scopes.All), new UploadRequest("forms/first-part.bin"), TestTimeout.Token))
        {
            await upload.AppendAsync(new byte[] { 1, 2, 3 }, TestTimeout.Token);
            await upload.SealAsync(TestTimeout.Token);
            var temp = Assert.Single(factory.Storage.TempFiles());
            File.SetLastWriteTimeUtc(factory.Storage.PathOf(temp), DateTime.UtcNow.AddHours(-2));

            Assert.Equal(0, sweeper.Sweep());
            Assert.Equal([temp], factory.Storage.TempFiles());
        }

        // Disposed without a commit: gone, and nothing is left for the sweeper either.
        Assert.Empty(factory.Storage.Files());
        Assert.Equal(0, sweeper.Sweep());
    }

    [Fact]
    public async Task Folder_Links_Are_Not_Followed_So_A_Loop_Ends_And_Nothing_Outside_The_Root_Is_Touched()
    {
        using var factory = new FileTransferFactory();
        using var outside = new TempStorage();
        outside.Write(".ft-upload-elsewhere.tmp", [1]);
        factory.Storage.Write("data/.ft-upload-stale.tmp", [1]);
        factory.Storage.Write("loop/file.bin", [1]);
        Directory.CreateSymbolicLink(factory.Storage.PathOf("loop/self"), ".");
        Directory.CreateSymbolicLink(factory.Storage.PathOf("loop/up"), "..");
        Directory.CreateSymbolicLink(factory.Storage.PathOf("alias"), "data");
        Directory.CreateSymbolicLink(factory.Storage.PathOf("out"), outside.RootPath);
        foreach (var stale in new[] { factory.Storage.PathOf("data/.ft-upload-stale.tmp"), outside.PathOf(".ft-upload-elsewhere.tmp") })
        {
            File.SetLastWriteTimeUtc(stale, DateTime.UtcNow.AddHours(-2));
        }

        var sweeper = factory.Services.GetServices<IHostedService>().OfType<StaleUploadSweeper>().Single();

        // Following the links, the walk would not end (two links on a loop are 2^n paths). The
        // sweep the host started may have taken the stale file already: what counts is the disk.
        await Task.Run(() => sweeper.Sweep(TestTimeout.Token)).WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);

        Assert.False(File.Exists(factory.Storage.PathOf("data/.ft-upload-stale.tmp")));
        Assert.True(File.Exists(outside.PathOf(".ft-upload-elsewhere.tmp")));
    }

    [Fact]
    public void A_Stopping_Host_Ends_The_Sweep_Without_Removing_Anything_More()
    {
        using var factory = new FileTransferFactory();
        var sweeper = factory.Services.GetServices<IHostedService>().OfType<StaleUploadSweeper>().Single();

        // Written after the host's own first sweep, which ran at start; the next is an hour away.
        factory.Storage.Write("a/b/.ft-upload-stale.tmp", [1]);
        File.SetLastWriteTimeUtc(factory.Storage.PathOf("a/b/.ft-upload-stale.tmp"), DateTime.UtcNow.AddHours(-2));

        Assert.Equal(0, sweeper.Sweep(new CancellationToken(canceled: true)));
        Assert.Equal(["a/b/.ft-upload-stale.tmp"], factory.Storage.Files());
        Assert.Equal(1, sweeper.Sweep(TestTimeout.Token));
    }
}
