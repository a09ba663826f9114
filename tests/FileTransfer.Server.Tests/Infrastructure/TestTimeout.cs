namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>One bound for every network wait in a test, so that a hang fails instead of stalling CI.</summary>
public static class TestTimeout
{
    public static CancellationToken Token => new CancellationTokenSource(TimeSpan.FromSeconds(120)).Token;
}
