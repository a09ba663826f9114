using System.Diagnostics;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// Waits for a condition, not for a clock: polls it until it holds and fails the test, naming what
/// was awaited, when it has not within the bound (issue 28: a loaded machine makes fixed sleeps flaky).
/// </summary>
public static class Eventually
{
    private static readonly TimeSpan DefaultLimit = TimeSpan.FromSeconds(30);

    /// <summary>Polls <paramref name="condition"/> every 20 ms until it holds; fails after <paramref name="limit"/> (30 s unless given).</summary>
    public static async Task UntilAsync(Func<bool> condition, string what, TimeSpan? limit = null)
    {
        var bound = limit ?? DefaultLimit;
        var watch = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(watch.Elapsed < bound, $"not within {bound.TotalSeconds} s: {what}");
            await Task.Delay(20, TestTimeout.Token);
        }
    }
}
