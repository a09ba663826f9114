using FileTransfer.Core.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Events;

/// <summary>The core raises a file's events in the order of its changes, however late a change's raise comes after its commit.</summary>
public sealed class EventOrderTests
{
    [Fact]
    public async Task A_Change_That_Commits_Later_Never_Gets_The_Earlier_Event()
    {
        var backend = new HeldCommits(new InMemoryBackend());
        await using var events = new FileEvents(null, Options.Create(new EventsOptions()), TimeProvider.System, NullLogger<FileEvents>.Instance);
        var files = new FileOperations(backend, new StaticTypes(), Options.Create(new StorageOptions()), Operations.Metrics(), NullLogger<FileOperations>.Instance, events: events);
        using var watching = new CancellationTokenSource();
        var seen = events.Feed.WatchAsync(_ => true, after: null, watching.Token).GetAsyncEnumerator(TestTimeout.Token);

        // The first change commits, then stalls before it raises (a slow thread, a GC pause); the
        // second change of the same name comes meanwhile.
        var first = files.UploadAsync(new UploadRequest("same.bin"), [1]);
        await backend.FirstCommitted.Task.WaitAsync(TestTimeout.Token);
        var second = files.UploadAsync(new UploadRequest("same.bin"), [2, 2]);
        await Task.Delay(200, TestTimeout.Token); // the second's commit, had it not waited for the first's raise
        backend.ReleaseFirst.SetResult();
        await Task.WhenAll(first, second);

        Assert.True(await seen.MoveNextAsync());
        Assert.Equal((FileEventTypes.FileCreated, 1L), (seen.Current.Type, seen.Current.Size));
        Assert.True(await seen.MoveNextAsync());
        Assert.Equal((FileEventTypes.FileReplaced, 2L), (seen.Current.Type, seen.Current.Size));
        Assert.True(string.CompareOrdinal((await first).File.Object.ETag, (await second).File.Object.ETag) != 0);
        await watching.CancelAsync();
    }

    private sealed class StaticTypes : IContentTypeMap
    {
        public string For(string fileName) => "application/octet-stream";
    }

    // The first commit returns only once the test lets it: between its commit and its raise.
    private sealed class HeldCommits(IStorageBackend inner) : IStorageBackend
    {
        private int _commits;

        public TaskCompletionSource FirstCommitted { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource ReleaseFirst { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string Location => inner.Location;

        public async ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken)
        {
            var committed = await inner.CommitAsync(commits, cancellationToken);
            if (Interlocked.Increment(ref _commits) == 1)
            {
                FirstCommitted.SetResult();
                await ReleaseFirst.Task;
            }

            return committed;
        }

        public ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken) => inner.StatAsync(name, cancellationToken);

        public ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken) => inner.OpenAsync(name, cancellationToken);

        public ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken) => inner.ListAsync(request, cancellationToken);

        public ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken) => inner.StageAsync(name, declaredLength, cancellationToken);

        public ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken) => inner.DeleteAsync(name, preconditions, cancellationToken);

        public ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken) => inner.SaveDigestAsync(version, sha256, cancellationToken);

        public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) => inner.IsAvailableAsync(cancellationToken);
    }
}
