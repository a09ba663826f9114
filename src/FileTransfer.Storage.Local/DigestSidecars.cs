using System.Collections.Concurrent;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Core;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Every file's SHA-256 on the local disk. Uploads hand it over as they commit (computed while the
/// bytes streamed); for a file placed on disk by other means the core computes it once, from the
/// version it opened, and hands it over. Kept in a sidecar under the reserved folder
/// <c>.ft-meta/sha256/</c> so that it survives a restart, valid for one size and modification time
/// so that a file changed behind our back is hashed again, never misreported.
/// </summary>
/// <remarks>
/// A sidecar is named by the SHA-256 of the file's name, not by the name itself: every accepted
/// name (segments up to 255 bytes, 1024 in all) then has one, whose path is short and fixed
/// (<c>.ft-meta/sha256/ab/abcdef....</c>), free of the name's folders, and never clashes with a
/// file or folder left behind by another name. The name is written inside, so that each sidecar
/// says whose it is.
/// </remarks>
internal sealed partial class DigestSidecars(LocalRoot root, ILogger<DigestSidecars> logger)
{
    private const int MaxCachedEntries = 100_000;

    private readonly string _sidecarRoot = Path.Join(root.FullPath, FileNames.ReservedPrefix + "meta", "sha256");
    private readonly ConcurrentDictionary<string, Entry> _cache = new(StringComparer.Ordinal);

    /// <summary>The SHA-256 kept for the version of <paramref name="name"/> with this size and time, or null.</summary>
    public byte[]? Find(string name, long size, DateTime lastWriteUtc)
    {
        var key = new Entry(size, lastWriteUtc.Ticks, []);
        if (_cache.TryGetValue(name, out var cached) && cached.SameVersion(key))
        {
            return cached.Sha256;
        }

        var sha256 = ReadSidecar(name, key);
        if (sha256 is not null)
        {
            Remember(name, key with { Sha256 = sha256 });
        }

        return sha256;
    }

    /// <summary>Records the digest of a file about to be committed under <paramref name="name"/>.</summary>
    public void Save(string name, long size, DateTime lastWriteUtc, byte[] sha256)
    {
        var entry = new Entry(size, lastWriteUtc.Ticks, sha256);
        WriteSidecar(name, entry);
        Remember(name, entry);
    }

    /// <summary>Drops the digest of a deleted file.</summary>
    public void Forget(string name)
    {
        _cache.TryRemove(name, out _);
        TryDelete(SidecarPath(name));
    }

    private byte[]? ReadSidecar(string name, Entry key)
    {
        try
        {
            // "<sha256 hex> <size> <ticks> <name>\n": the name last, since it may hold spaces.
            var parts = File.ReadAllText(SidecarPath(name)).TrimEnd('\n').Split(' ', 4);
            var stored = new Entry(long.Parse(parts[1], CultureInfo.InvariantCulture), long.Parse(parts[2], CultureInfo.InvariantCulture), Convert.FromHexString(parts[0]));
            return parts[3] == name && stored.SameVersion(key) && stored.Sha256.Length == SHA256.HashSizeInBytes ? stored.Sha256 : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    private void WriteSidecar(string name, Entry entry)
    {
        var path = SidecarPath(name);
        var temp = $"{path}.{Guid.NewGuid():N}.tmp";
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(temp, string.Create(CultureInfo.InvariantCulture, $"{Convert.ToHexStringLower(entry.Sha256)} {entry.Size} {entry.LastWriteTicks} {name}\n"));
            File.Move(temp, path, overwrite: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // The digest is an optimisation of a later request, never a reason to fail this one.
            LogSidecarFailed(logger, name, ex);
            TryDelete(temp);
        }
    }

    private void Remember(string name, Entry entry)
    {
        if (_cache.Count >= MaxCachedEntries)
        {
            _cache.Clear();
        }

        _cache[name] = entry;
    }

    private string SidecarPath(string name) => Path.Join(_sidecarRoot, SidecarKey(name));

    /// <summary>Where the sidecar of <paramref name="name"/> lives below <c>.ft-meta/sha256/</c>: two hex digits of the name's hash, then all of them.</summary>
    internal static string SidecarKey(string name)
    {
        var key = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(name)));
        return $"{key[..2]}/{key}";
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left behind: keyed by size and time, a stale sidecar is never believed.
        }
    }

    private sealed record Entry(long Size, long LastWriteTicks, byte[] Sha256)
    {
        public bool SameVersion(Entry other) => Size == other.Size && LastWriteTicks == other.LastWriteTicks;
    }

    [LoggerMessage(EventId = 21, Level = LogLevel.Warning, Message = "Could not store the SHA-256 sidecar of {Name}")]
    private static partial void LogSidecarFailed(ILogger logger, string name, Exception exception);
}
