using FileTransfer.Server.Storage;
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
}
