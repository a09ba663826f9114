using System.Security.Cryptography;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>A storage root in a fresh temporary folder, removed when disposed.</summary>
public sealed class TempStorage : IDisposable
{
    public TempStorage()
    {
        RootPath = Path.Combine(Path.GetTempPath(), "filetransfer-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(RootPath);
    }

    public string RootPath { get; }

    public string PathOf(string name) => Path.Combine(RootPath, name.Replace('/', Path.DirectorySeparatorChar));

    /// <summary>Writes <paramref name="size"/> random bytes under <paramref name="name"/> and returns them.</summary>
    public byte[] WriteRandom(string name, int size)
    {
        var bytes = new byte[size];
        Random.Shared.NextBytes(bytes);
        Write(name, bytes);
        return bytes;
    }

    public void Write(string name, byte[] bytes)
    {
        var path = PathOf(name);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, bytes);
    }

    /// <summary>Every file below the root, relative and '/' separated, in order.</summary>
    public IReadOnlyList<string> Files() =>
        [.. Directory.EnumerateFiles(RootPath, "*", SearchOption.AllDirectories)
            .Select(p => Path.GetRelativePath(RootPath, p).Replace(Path.DirectorySeparatorChar, '/'))
            .Order(StringComparer.Ordinal)];

    /// <summary>The files a client can see: everything but the server's reserved <c>.ft-</c> entries.</summary>
    public IReadOnlyList<string> VisibleFiles() =>
        [.. Files().Where(f => !f.Contains("/.ft-", StringComparison.Ordinal) && !f.StartsWith(".ft-", StringComparison.Ordinal))];

    /// <summary>Temporary files of uploads in progress (or left behind by a failure).</summary>
    public IReadOnlyList<string> TempFiles() =>
        [.. Files().Where(f => Path.GetFileName(f).StartsWith(".ft-upload-", StringComparison.Ordinal))];

    public static string Sha256(byte[] bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    public static string Sha256(Stream stream) => Convert.ToHexString(SHA256.HashData(stream));

    public void Dispose()
    {
        try
        {
            Directory.Delete(RootPath, recursive: true);
        }
        catch (IOException)
        {
            // A server still holding a file open on some platforms; the OS cleans temp later.
        }
    }
}
