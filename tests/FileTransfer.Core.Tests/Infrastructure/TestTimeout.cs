namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>One bound for every wait in a test, so that a hang (a lock never released) fails instead of stalling CI.</summary>
internal static class TestTimeout
{
    public static CancellationToken Token => new CancellationTokenSource(TimeSpan.FromSeconds(120)).Token;
}
