namespace FileTransfer.Core.Tests.Infrastructure;

internal static class Refusals
{
    /// <summary>Runs <paramref name="action"/> and returns the <see cref="FileTransferException"/> it must throw for <paramref name="reason"/>.</summary>
    public static async Task<FileTransferException> AssertAsync(ErrorReason reason, Func<Task> action)
    {
        var refused = await Assert.ThrowsAsync<FileTransferException>(action);
        Assert.Equal(reason, refused.Reason);
        return refused;
    }
}
