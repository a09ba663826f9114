using FileTransfer.Storage.Local;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>The core's upload sessions over the local disk, as the host registers them, on a clock the test moves.</summary>
internal sealed class Sessions : IDisposable
{
    public static readonly Caller Owner = Caller.ForKey("owner", [Scopes.Read, Scopes.Write]);

    private readonly TempFolder _root = new();

    public Sessions(long maxFileSizeBytes = 100L * 1024 * 1024 * 1024, long checkpointBytes = 64L * 1024 * 1024)
    {
        MaxFileSizeBytes = maxFileSizeBytes;
        CheckpointBytes = checkpointBytes;
        (Backend, Store) = LocalBackends.CreateWithSessions(_root.Path);
        Files = Operations.Over(Backend, maxFileSizeBytes);
        Core = Restart();
    }

    public ManualTime Time { get; } = new();

    public LocalStorageBackend Backend { get; }

    public LocalUploadSessionStore Store { get; }

    public FileOperations Files { get; }

    public UploadSessions Core { get; }

    public TempFolder Root => _root;

    private long MaxFileSizeBytes { get; }

    private long CheckpointBytes { get; }

    /// <summary>A new core and store over the same root, as a restarted server (or another process) has them.</summary>
    public UploadSessions Restart()
    {
        var (backend, store) = LocalBackends.CreateWithSessions(_root.Path);
        return new UploadSessions(
            Operations.Over(backend, MaxFileSizeBytes),
            store,
            Options.Create(new UploadSessionOptions { ExpirySeconds = 3600, CheckpointBytes = CheckpointBytes }),
            Time,
            NullLogger<UploadSessions>.Instance);
    }

    /// <summary>Appends <paramref name="bytes"/> in one request at the session's offset and ends it with <paramref name="end"/>.</summary>
    public async Task<UploadSessionOutcome> AppendAsync(UploadSessions core, string id, long offset, ReadOnlyMemory<byte> bytes, UploadEnd end, Caller? caller = null)
    {
        var token = TestTimeout.Token;
        await using var write = await core.BeginWriteAsync(new UploadWriteRequest(id, caller ?? Owner, offset), token);
        foreach (var piece in TestBytes.UnevenPieces(bytes.ToArray()))
        {
            await write.AppendAsync(piece, token);
        }

        return await write.FinishAsync(end, token);
    }

    /// <summary>What <paramref name="name"/> holds now, or null.</summary>
    public byte[]? Read(string name) => File.Exists(_root.PathOf(name)) ? File.ReadAllBytes(_root.PathOf(name)) : null;

    /// <summary>The client-visible entries: everything but the server's reserved <c>.ft-</c> ones.</summary>
    public IReadOnlyList<string> Visible() =>
        [.. _root.Entries().Where(e => !e.Split('/').Any(s => s.StartsWith(FileNames.ReservedPrefix, StringComparison.Ordinal)))];

    public void Dispose() => _root.Dispose();
}

/// <summary>A clock that moves only when told to.</summary>
internal sealed class ManualTime : TimeProvider
{
    private DateTimeOffset _now = new(2026, 11, 22, 12, 0, 0, TimeSpan.Zero);

    public override DateTimeOffset GetUtcNow() => _now;

    public void Advance(TimeSpan by) => _now += by;
}
