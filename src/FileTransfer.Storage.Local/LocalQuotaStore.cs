using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Quota records on the local disk: the record of folder <c>F</c> is <c>.ft-meta/quotas/HASH.json</c>
/// (HASH: the SHA-256 of <c>F</c>), replaced whole by a rename, so that a reader sees the old record
/// or the new one, never half of one. A change holds <c>HASH.lock</c>, an OS file lock that goes with
/// its process, so that servers sharing the disk change a record one at a time; within one process a
/// semaphore per folder keeps them from spinning on it. A record that does not parse is missing (the
/// core rebuilds it by a scan).
/// </summary>
internal sealed class LocalQuotaStore(LocalRoot root) : IQuotaStore
{
    private static readonly TimeSpan LockRetry = TimeSpan.FromMilliseconds(5);
    private static readonly TimeSpan LockWait = TimeSpan.FromSeconds(30);

    private readonly string _folder = Path.Join(root.FullPath, FileNames.ReservedPrefix + "meta", "quotas");
    private readonly ConcurrentDictionary<string, SemaphoreSlim> _gates = new(StringComparer.Ordinal);

    public async ValueTask<QuotaRecord> UpdateAsync(string folder, Func<QuotaRecord?, QuotaRecord> change, CancellationToken cancellationToken)
    {
        var gate = _gates.GetOrAdd(folder, _ => new SemaphoreSlim(1, 1));
        await gate.WaitAsync(cancellationToken);
        try
        {
            Directory.CreateDirectory(_folder);
            var path = PathOf(folder);
            using var held = await LockAsync(path + ".lock", cancellationToken);
            var current = Read(path);
            var changed = change(current);
            if (!ReferenceEquals(changed, current))
            {
                var temp = $"{path}.{Guid.NewGuid():N}.tmp";
                await File.WriteAllBytesAsync(temp, changed.ToJson(), CancellationToken.None);
                File.Move(temp, path, overwrite: true);
            }

            return changed;
        }
        finally
        {
            gate.Release();
        }
    }

    public ValueTask<QuotaRecord?> ReadAsync(string folder, CancellationToken cancellationToken) => ValueTask.FromResult(Read(PathOf(folder)));

    private string PathOf(string folder) =>
        Path.Join(_folder, Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(folder))) + ".json");

    private static QuotaRecord? Read(string path)
    {
        try
        {
            return QuotaRecord.Parse(File.ReadAllBytes(path));
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    private static async Task<FileStream> LockAsync(string path, CancellationToken cancellationToken)
    {
        var started = DateTime.UtcNow;
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException) when (DateTime.UtcNow - started < LockWait)
            {
                await Task.Delay(LockRetry, cancellationToken); // another process changes the record
            }
        }
    }
}
