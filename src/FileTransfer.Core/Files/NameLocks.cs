namespace FileTransfer.Core;

/// <summary>
/// Serialises work on one name inside this process: the local disk's check-then-rename of a commit
/// (so that If-None-Match / If-Match are evaluated against the version actually replaced), and the
/// core's commit-then-raise of an event (so that the events of one file are in the order of its
/// changes). Striped: a fixed set of semaphores, so there is nothing to clean up per name. Each user
/// holds its own instance: two users sharing stripes could each hold one the other waits for.
/// </summary>
public sealed class NameLocks
{
    private readonly SemaphoreSlim[] _stripes = [.. Enumerable.Range(0, 64).Select(_ => new SemaphoreSlim(1, 1))];

    /// <summary>Holds the lock of <paramref name="fullPath"/> until the result is disposed.</summary>
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
