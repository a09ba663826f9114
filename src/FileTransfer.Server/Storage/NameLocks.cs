namespace FileTransfer.Server.Storage;

/// <summary>
/// Serialises the check-then-rename of a commit per file name inside this process, so that
/// If-None-Match / If-Match are evaluated against the version actually replaced. Striped: a
/// fixed set of semaphores, so there is nothing to clean up per name.
/// </summary>
internal sealed class NameLocks
{
    private readonly SemaphoreSlim[] _stripes = [.. Enumerable.Range(0, 64).Select(_ => new SemaphoreSlim(1, 1))];

    public async ValueTask<IDisposable> AcquireAsync(string fullPath, CancellationToken cancellationToken)
    {
        var stripe = _stripes[(StringComparer.Ordinal.GetHashCode(fullPath) & int.MaxValue) % _stripes.Length];
        await stripe.WaitAsync(cancellationToken);
        return new Release(stripe);
    }

    private sealed class Release(SemaphoreSlim stripe) : IDisposable
    {
        private SemaphoreSlim? _stripe = stripe;

        public void Dispose() => Interlocked.Exchange(ref _stripe, null)?.Release();
    }
}
