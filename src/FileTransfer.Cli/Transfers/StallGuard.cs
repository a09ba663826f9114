namespace FileTransfer.Cli.Transfers;

/// <summary>
/// Cancels a network read that receives nothing for <see cref="Limit"/>: a transfer of any size
/// has no total timeout, but a connection that silently died must not hang the tool forever.
/// </summary>
internal sealed class StallGuard(CancellationToken cancellationToken) : IDisposable
{
    public static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    private readonly CancellationTokenSource _source = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);

    /// <summary>A token for the next read; each call restarts the clock.</summary>
    public CancellationToken Arm()
    {
        _source.CancelAfter(Limit);
        return _source.Token;
    }

    /// <summary>True when a read was cancelled by the clock rather than by the user.</summary>
    public bool Stalled => _source.IsCancellationRequested && !cancellationToken.IsCancellationRequested;

    public void Dispose() => _source.Dispose();
}
