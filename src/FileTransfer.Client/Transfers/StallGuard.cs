namespace FileTransfer.Client.Transfers;

/// <summary>
/// Cancels a network wait that receives nothing for <c>limit</c>: a transfer of any size has no
/// total timeout, but a connection that silently died must not hang the caller forever.
/// </summary>
internal sealed class StallGuard(TimeSpan limit, CancellationToken cancellationToken) : IDisposable
{
    private readonly CancellationTokenSource _source = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);

    public TimeSpan Limit => limit;

    /// <summary>The token every wait of one attempt uses; <see cref="Arm"/> restarts its clock.</summary>
    public CancellationToken Token => _source.Token;

    /// <summary>Restarts the clock before the next wait.</summary>
    public CancellationToken Arm()
    {
        _source.CancelAfter(limit);
        return _source.Token;
    }

    /// <summary>True when a wait was cancelled by the clock rather than by the caller.</summary>
    public bool Stalled => _source.IsCancellationRequested && !cancellationToken.IsCancellationRequested;

    public void Dispose() => _source.Dispose();
}
