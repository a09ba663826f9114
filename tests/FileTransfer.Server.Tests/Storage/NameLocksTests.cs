using FileTransfer.Core;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Storage;

public sealed class NameLocksTests
{
    // More names than stripes: some of them share a stripe, which must be taken once.
    private static readonly string[] Names = [.. Enumerable.Range(0, 200).Select(i => $"/root/batch/{i}.bin")];

    [Fact]
    public async Task Holding_Many_Names_Blocks_Each_Of_Them_Until_Released()
    {
        var locks = new NameLocks();

        var all = await locks.AcquireAllAsync(Names, TestTimeout.Token);
        var single = locks.AcquireAsync(Names[^1], TestTimeout.Token).AsTask();
        Assert.False(single.IsCompleted); // a held lock is never granted synchronously; nothing to wait for

        all.Dispose();
        all.Dispose(); // a second dispose releases nothing twice
        (await single.WaitAsync(TimeSpan.FromSeconds(10))).Dispose();
        (await locks.AcquireAllAsync(Names, TestTimeout.Token).AsTask().WaitAsync(TimeSpan.FromSeconds(10))).Dispose();
    }

    [Fact]
    public async Task Holders_Of_Overlapping_Names_In_Opposite_Orders_Do_Not_Deadlock()
    {
        var locks = new NameLocks();
        var reversed = Names.Reverse().ToArray();

        async Task HoldRepeatedly(string[] names)
        {
            for (var i = 0; i < 200; i++)
            {
                using (await locks.AcquireAllAsync(names, TestTimeout.Token))
                {
                    await Task.Yield();
                }
            }
        }

        await Task.WhenAll(Task.Run(() => HoldRepeatedly(Names)), Task.Run(() => HoldRepeatedly(reversed)), Task.Run(() => HoldRepeatedly(Names[..3])))
            .WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task A_Cancelled_Wait_Gives_Back_The_Stripes_It_Already_Held()
    {
        var locks = new NameLocks();
        var blocker = await locks.AcquireAsync(Names[^1], TestTimeout.Token);
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => locks.AcquireAllAsync(Names, cancel.Token).AsTask());
        blocker.Dispose();

        (await locks.AcquireAllAsync(Names, TestTimeout.Token).AsTask().WaitAsync(TimeSpan.FromSeconds(10))).Dispose();
    }
}
