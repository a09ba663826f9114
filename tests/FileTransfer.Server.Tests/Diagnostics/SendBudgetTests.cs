using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Rest;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// The downloads' shared flush budget: a download alone keeps its protocol's flush size, many share
/// the budget equally, and none flushes after less than two pool blocks (unless its own size is smaller).
/// </summary>
public sealed class SendBudgetTests
{
    private const int Budget = 4 * 1024 * 1024;

    private const long Large = 64L * 1024 * 1024;

    [Fact]
    public void The_Default_Budget_Is_4_MiB()
    {
        Assert.Equal(Budget, new TransferTuningOptions().SendBudgetBytes);
    }

    [Fact]
    public void A_Download_Alone_Keeps_Its_Own_Flush_Size()
    {
        var budget = New();

        using var alone = budget.Start(Large);

        Assert.Equal(1024 * 1024, budget.FlushBytes(1024 * 1024));
        Assert.Equal(256 * 1024, budget.FlushBytes(256 * 1024));
    }

    [Theory]
    [InlineData(2, 1024 * 1024)]
    [InlineData(8, 512 * 1024)]
    [InlineData(16, 256 * 1024)]
    [InlineData(64, 64 * 1024)]
    [InlineData(128, 64 * 1024)]
    [InlineData(256, 64 * 1024)]
    public void Concurrent_Downloads_Share_The_Budget_Down_To_Two_Blocks(int downloads, int expected)
    {
        var budget = New();
        var leases = Enumerable.Range(0, downloads).Select(_ => budget.Start(Large)).ToList();

        Assert.Equal(downloads, budget.Sending);
        Assert.Equal(expected, budget.FlushBytes(1024 * 1024));
        leases.ForEach(lease => lease.Dispose());
    }

    [Fact]
    public void A_Flush_Size_Below_The_Floor_Is_Kept_As_It_Is()
    {
        var budget = New();
        var leases = Enumerable.Range(0, 1000).Select(_ => budget.Start(Large)).ToList();

        Assert.Equal(4096, budget.FlushBytes(4096));
        leases.ForEach(lease => lease.Dispose());
    }

    [Fact]
    public void A_Finished_Download_Gives_Its_Share_Back()
    {
        var budget = New();
        var leases = Enumerable.Range(0, 64).Select(_ => budget.Start(Large)).ToList();
        leases.Skip(1).ToList().ForEach(lease => lease.Dispose());

        Assert.Equal(1, budget.Sending);
        Assert.Equal(1024 * 1024, budget.FlushBytes(1024 * 1024));
        leases[0].Dispose();
        Assert.Equal(0, budget.Sending);
    }

    [Fact]
    public void A_Download_That_Fits_In_The_Smallest_Share_Is_Not_Counted()
    {
        var budget = New();

        using (budget.Start(SendBudget.MinFlushBytes))
        using (budget.Start(1))
        {
            Assert.Equal(0, budget.Sending);
            using var larger = budget.Start(SendBudget.MinFlushBytes + 1);
            Assert.Equal(1, budget.Sending);
        }

        Assert.Equal(0, budget.Sending);
    }

    internal static SendBudget New(int bytes = Budget) => new(bytes);
}
