using FileTransfer.Core.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Sessions;

/// <summary>
/// A status query right after a writer's request was cut: it waits (bounded) for that writer to save
/// what arrived, so that a client resuming at once resumes from there, not from before the cut
/// (issue 28: the gRPC client restarted from 0 under load). The store's save is held open by the test.
/// </summary>
public sealed class CutWriterStatusTests : IDisposable
{
    private readonly Infrastructure.Sessions _sessions = new();

    [Fact]
    public async Task A_Status_Query_Right_After_A_Cut_Answers_The_Offset_The_Cut_Writer_Saved()
    {
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var core = new UploadSessions(
            _sessions.Files,
            new GatedStore(_sessions.Store, gate.Task),
            Options.Create(new UploadSessionOptions()),
            _sessions.Time,
            NullLogger<UploadSessions>.Instance);
        var session = await core.CreateAsync(new UploadRequest("cut.bin"), Infrastructure.Sessions.Owner, null, TestTimeout.Token);
        using var request = new CancellationTokenSource();
        var write = await core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), request.Token);
        await write.AppendAsync(TestBytes.Random(300_000), request.Token);

        // The client's connection is cut: the writer keeps what arrived, its save held open here.
        await request.CancelAsync();
        var ending = write.DisposeAsync().AsTask();
        var status = core.GetAsync(session.Id, Infrastructure.Sessions.Owner, TestTimeout.Token).AsTask();

        Assert.False(status.IsCompleted);
        gate.SetResult();
        await ending;
        Assert.Equal(300_000, (await status).Offset);
    }

    [Fact]
    public async Task A_Status_Query_While_A_Writer_Runs_Answers_At_Once()
    {
        var core = _sessions.Core;
        var session = await core.CreateAsync(new UploadRequest("running.bin"), Infrastructure.Sessions.Owner, null, TestTimeout.Token);
        await using var write = await core.BeginWriteAsync(new UploadWriteRequest(session.Id, Infrastructure.Sessions.Owner, 0), TestTimeout.Token);
        await write.AppendAsync(TestBytes.Random(1000), TestTimeout.Token);

        var status = core.GetAsync(session.Id, Infrastructure.Sessions.Owner, TestTimeout.Token).AsTask();

        Assert.True(status.IsCompleted);
        Assert.Equal(0, (await status).Offset);
    }

    public void Dispose() => _sessions.Dispose();

    // The local store, with every lease's save waiting for the gate first.
    private sealed class GatedStore(IUploadSessionStore inner, Task gate) : IUploadSessionStore
    {
        public ValueTask CreateAsync(UploadSession session, CancellationToken cancellationToken) => inner.CreateAsync(session, cancellationToken);

        public ValueTask<UploadSession?> GetAsync(string id, CancellationToken cancellationToken) => inner.GetAsync(id, cancellationToken);

        public async ValueTask<IUploadSessionLease?> TryAcquireAsync(string id, CancellationToken cancellationToken) =>
            await inner.TryAcquireAsync(id, cancellationToken) is { } lease ? new GatedLease(lease, gate) : null;

        public IAsyncEnumerable<UploadSession> ListAsync(CancellationToken cancellationToken) => inner.ListAsync(cancellationToken);
    }

    private sealed class GatedLease(IUploadSessionLease inner, Task gate) : IUploadSessionLease
    {
        public UploadSession Session => inner.Session;

        public ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken) => inner.WriteAsync(bytes, cancellationToken);

        public async ValueTask<UploadSession> SaveAsync(UploadSession session, CancellationToken cancellationToken)
        {
            await gate;
            return await inner.SaveAsync(session, cancellationToken);
        }

        public ValueTask<IStagedObject> HandOverAsync(CancellationToken cancellationToken) => inner.HandOverAsync(cancellationToken);

        public ValueTask DeleteAsync(CancellationToken cancellationToken) => inner.DeleteAsync(cancellationToken);

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }
}
