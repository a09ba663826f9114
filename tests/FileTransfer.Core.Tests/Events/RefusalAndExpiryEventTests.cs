using FileTransfer.Core.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Events;

/// <summary>
/// Events report changes only: an upload or delete refused by a quota or by the caller's grant
/// raises none, while a session that expires empty (<c>Uploads:EmptyExpirySeconds</c>) raises
/// <c>upload.expired</c> for its owner.
/// </summary>
public sealed class RefusalAndExpiryEventTests : IAsyncDisposable
{
    private static readonly Caller Reader = Caller.ForKey("reader", [Scopes.Read]);
    private static readonly Caller Elsewhere = Caller.ForKey("elsewhere", Scopes.All, ["other/"]);

    private readonly TempFolder _root = new();
    private readonly ManualTime _time = new();
    private readonly FileEvents _events = new(null, Options.Create(new EventsOptions()), TimeProvider.System, NullLogger<FileEvents>.Instance);
    private readonly CancellationTokenSource _watching = new();
    private readonly FileOperations _files;
    private readonly UploadSessions _sessions;

    public RefusalAndExpiryEventTests()
    {
        var (backend, store) = LocalBackends.CreateWithSessions(_root.Path);
        var quotas = new Quotas(
            backend,
            LocalBackends.QuotaStore(_root.Path),
            store,
            Options.Create(new QuotaOptions { new QuotaRule { Path = "q/", MaxBytes = 1000 } }),
            TimeProvider.System,
            NullLogger<Quotas>.Instance);
        _files = new FileOperations(backend, new OctetStreams(), Options.Create(new StorageOptions()), Operations.Metrics(), NullLogger<FileOperations>.Instance, quotas, _events);
        _sessions = new UploadSessions(
            _files,
            store,
            Options.Create(new UploadSessionOptions { ExpirySeconds = 3600, EmptyExpirySeconds = 60 }),
            _time,
            NullLogger<UploadSessions>.Instance);
    }

    [Fact]
    public async Task Uploads_And_Deletes_Refused_By_A_Quota_Or_A_Grant_Raise_No_Event()
    {
        var token = TestTimeout.Token;
        await _files.UploadAsync(new UploadRequest("q/kept.bin"), [1, 2, 3]);
        var seen = _events.Feed.WatchAsync(_ => true, after: null, _watching.Token).GetAsyncEnumerator(token);

        var refusals = new Func<Task>[]
        {
            async () => await _files.BeginUploadAsync(TestCallers.Full, new UploadRequest("q/big.bin") { DeclaredLength = 2000 }, token),
            async () => await _sessions.CreateAsync(new UploadRequest("q/big2.bin") { DeclaredLength = 2000 }, TestCallers.Full, null, token),
            async () => await _files.BeginUploadAsync(Reader, new UploadRequest("q/read-only.bin"), token),
            async () => await _sessions.CreateAsync(new UploadRequest("q/read-only2.bin"), Reader, null, token),
            async () => await _files.DeleteAsync(Reader, TransferProtocol.Rest, "q/kept.bin", Preconditions.None, token),
            async () => await _files.BeginUploadAsync(Elsewhere, new UploadRequest("q/outside.bin"), token),
            async () => await _files.DeleteAsync(Elsewhere, TransferProtocol.Grpc, "q/kept.bin", Preconditions.None, token),
        };
        foreach (var refusal in refusals)
        {
            var refused = Assert.IsType<FileTransferException>(await Record.ExceptionAsync(refusal));
            Assert.Contains(refused.Reason, new[] { ErrorReason.QuotaExceeded, ErrorReason.PermissionDenied });
        }

        // The next change is the first event the watcher gets: none came before it.
        await _files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, "q/kept.bin", Preconditions.None, token);
        Assert.True(await seen.MoveNextAsync());
        Assert.Equal((FileEventTypes.FileDeleted, "q/kept.bin"), (seen.Current.Type, seen.Current.Name));
    }

    [Fact]
    public async Task A_Session_That_Expires_Without_A_Byte_Raises_Upload_Expired_For_Its_Owner()
    {
        var token = TestTimeout.Token;
        var session = await _sessions.CreateAsync(new UploadRequest("q/empty.bin") { Protocol = TransferProtocol.Tus }, TestCallers.Full, null, token);
        var seen = _events.Feed.WatchAsync(e => e.Type == FileEventTypes.UploadExpired, after: null, _watching.Token).GetAsyncEnumerator(token);

        _time.Advance(TimeSpan.FromSeconds(59));
        Assert.Equal(0, await _sessions.RemoveExpiredAsync(token));
        _time.Advance(TimeSpan.FromSeconds(2)); // past EmptyExpirySeconds, long before ExpirySeconds
        Assert.Equal(1, await _sessions.RemoveExpiredAsync(token));

        Assert.True(await seen.MoveNextAsync());
        var expired = seen.Current;
        Assert.Equal(("q/empty.bin", session.Id, TestCallers.Full.Id, null), (expired.Name, expired.UploadId, expired.Caller, expired.Protocol));
    }

    public async ValueTask DisposeAsync()
    {
        await _watching.CancelAsync();
        await _events.DisposeAsync();
        _watching.Dispose();
        _root.Dispose();
    }

    private sealed class OctetStreams : IContentTypeMap
    {
        public string For(string fileName) => "application/octet-stream";
    }
}
