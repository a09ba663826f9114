using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Events on the local disk: each object a file under the root's <c>.ft-events/</c> (no listing
/// shows it), written to a temporary file and renamed into place, so that a restart of the server
/// (or its crash) finds every object whole or not at all. Not flushed to the device: an fsync per
/// batch measurably cut upload throughput (docs/events.md), and what a power cut can lose is the
/// events of the last moments, never a file. One server per root (the disk is not shared
/// between replicas), so conditional replaces are checked under one lock of this process; an
/// object's version is the hash of its bytes.
/// </summary>
internal sealed class LocalEventStore(LocalRoot root) : IEventStore
{
    /// <summary>The folder of the event objects, below the root.</summary>
    public const string FolderName = FileNames.ReservedPrefix + "events";

    private const string TempPrefix = ".tmp-";

    private readonly string _folder = Path.Join(root.FullPath, FolderName);
    private readonly SemaphoreSlim _replace = new(1, 1);

    public bool IsShared => false;

    public ValueTask<string?> TryCreateAsync(string key, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        var path = PathOf(key);
        var temp = WriteTemp(path, bytes.Span);
        try
        {
            // Fails when the key exists: a create never replaces.
            File.Move(temp, path, overwrite: false);
            return ValueTask.FromResult<string?>(VersionOf(bytes.Span));
        }
        catch (IOException) when (File.Exists(path))
        {
            File.Delete(temp);
            return ValueTask.FromResult<string?>(null);
        }
    }

    public async ValueTask<string?> TryReplaceAsync(string key, string version, ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
    {
        var path = PathOf(key);
        await _replace.WaitAsync(cancellationToken);
        try
        {
            if (Read(path) is not { } current || current.Version != version)
            {
                return null;
            }

            File.Move(WriteTemp(path, bytes.Span), path, overwrite: true);
            return VersionOf(bytes.Span);
        }
        finally
        {
            _replace.Release();
        }
    }

    public ValueTask<EventStoreObject?> ReadAsync(string key, CancellationToken cancellationToken) => ValueTask.FromResult(Read(PathOf(key)));

    public async IAsyncEnumerable<string> ListAsync(string prefix, string? startAfter, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var folder = PathOf(prefix);
        if (!Directory.Exists(folder))
        {
            yield break;
        }

        var keys = Directory.EnumerateFiles(folder)
            .Select(Path.GetFileName)
            .Where(name => !name!.StartsWith(TempPrefix, StringComparison.Ordinal))
            .Select(name => prefix + name)
            .Where(key => startAfter is null || string.CompareOrdinal(key, startAfter) > 0)
            .Order(StringComparer.Ordinal);
        foreach (var key in keys)
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return key;
        }

        await Task.CompletedTask;
    }

    public ValueTask DeleteAsync(string key, CancellationToken cancellationToken)
    {
        File.Delete(PathOf(key));
        return ValueTask.CompletedTask;
    }

    private static string VersionOf(ReadOnlySpan<byte> bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes))[..32];

    private static EventStoreObject? Read(string path)
    {
        try
        {
            var bytes = File.ReadAllBytes(path);
            return new EventStoreObject(bytes, VersionOf(bytes));
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    // Keys are the core's: ASCII letters, digits, '-', '.', '/' (never '..').
    private string PathOf(string key) => Path.Join(_folder, key.Replace('/', Path.DirectorySeparatorChar));

    private static string WriteTemp(string path, ReadOnlySpan<byte> bytes)
    {
        var folder = Path.GetDirectoryName(path)!;
        Directory.CreateDirectory(folder);
        var temp = Path.Join(folder, TempPrefix + Guid.NewGuid().ToString("N"));
        using (var handle = File.OpenHandle(temp, FileMode.CreateNew, FileAccess.Write))
        {
            RandomAccess.Write(handle, bytes, 0);
        }

        return temp;
    }
}
