namespace FileTransfer.Storage.Local;

/// <summary>
/// Serialises the check-then-rename of a commit per file name inside this process, so that
/// If-None-Match / If-Match are evaluated against the version actually replaced. Striped: a
/// fixed set of semaphores, so there is nothing to clean up per name.
/// </summary>
internal sealed class NameLocks
{
    private readonly SemaphoreSlim[] _stripes = [.. Enumerable.Range(0, 64).Select(_ => new SemaphoreSlim(1, 1))];

    public ValueTask<IDisposable> AcquireAsync(string fullPath, CancellationToken cancellationToken) =>
        AcquireAllAsync([fullPath], cancellationToken);

    /// <summary>
    /// Holds the locks of several names at once (a commit of several files). Stripes are taken in
    /// ascending order and each only once, so two such holders cannot deadlock, and two names
    /// that share a stripe do not wait for themselves.
    /// </summary>
    public async ValueTask<IDisposable> AcquireAllAsync(IEnumerable<string> fullPaths, CancellationToken cancellationToken)
    {
        var stripes = fullPaths.Select(StripeOf).Distinct().Order().Select(index => _stripes[index]).ToArray();
        var held = 0;
        try
        {
            for (; held < stripes.Length; held++)
            {
                await stripes[held].WaitAsync(cancellationToken);
            }

            return new Release(stripes);
        }
        catch
        {
            new Release(stripes[..held]).Dispose();
            throw;
        }
    }

    private int StripeOf(string fullPath) => (StringComparer.Ordinal.GetHashCode(fullPath) & int.MaxValue) % _stripes.Length;

    private sealed class Release(SemaphoreSlim[] stripes) : IDisposable
    {
        private SemaphoreSlim[]? _stripes = stripes;

        public void Dispose()
        {
            foreach (var stripe in Interlocked.Exchange(ref _stripes, null) ?? [])
            {
                stripe.Release();
            }
        }
    }
}
