using System.Security.Cryptography;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>A generated file of random bytes and its SHA-256 (lowercase hex).</summary>
internal sealed record TestFile(string Name, string Path, long Size, string Sha256);

/// <summary>Generates the test files once and hard-links them into each server's root, so both serve the same inode.</summary>
internal static class TestFiles
{
    public static async Task<TestFile> CreateAsync(string directory, string name, long size)
    {
        Directory.CreateDirectory(directory);
        var path = System.IO.Path.Combine(directory, name);
        using var sha = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var buffer = new byte[1 << 20];
        await using (var file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1))
        {
            for (long written = 0; written < size; written += buffer.Length)
            {
                var count = (int)Math.Min(buffer.Length, size - written);
                Random.Shared.NextBytes(buffer.AsSpan(0, count));
                sha.AppendData(buffer, 0, count);
                await file.WriteAsync(buffer.AsMemory(0, count));
            }
        }

        return new TestFile(name, path, size, Convert.ToHexStringLower(sha.GetHashAndReset()));
    }

    public static async Task LinkIntoAsync(TestFile file, string directory)
    {
        Directory.CreateDirectory(directory);
        var target = System.IO.Path.Combine(directory, file.Name);
        File.Delete(target);
        (await ExternalTool.RunAsync("ln", [file.Path, target], TimeSpan.FromSeconds(10))).EnsureSuccess("ln");
    }

    public static async Task<string> Sha256Async(string path)
    {
        await using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 20, FileOptions.SequentialScan);
        return Convert.ToHexStringLower(await SHA256.HashDataAsync(file));
    }
}
