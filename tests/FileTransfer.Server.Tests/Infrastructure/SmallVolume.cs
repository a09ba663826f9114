using System.Diagnostics;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A real, tiny file system (a tmpfs of <c>size</c>) mounted at a folder inside a storage root, so
/// that ENOSPC arrives mid-stream from the kernel, not from a fake. Needs root or password-less
/// sudo, as on CI and in the dev container.
/// </summary>
public sealed class SmallVolume : IDisposable
{
    public SmallVolume(TempStorage storage, string name, string size = "1m")
    {
        Path = storage.PathOf(name);
        Directory.CreateDirectory(Path);
        Run("mount", "-t", "tmpfs", "-o", $"size={size}", "tmpfs", Path);
    }

    /// <summary>The mount point.</summary>
    public string Path { get; }

    public void Dispose() => Run("umount", Path);

    private static void Run(string command, params string[] arguments)
    {
        var asRoot = Environment.UserName == "root";
        var start = new ProcessStartInfo(asRoot ? command : "sudo", asRoot ? arguments : ["-n", command, .. arguments])
        {
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"'{command} {string.Join(' ', arguments)}' failed (this test needs root or password-less sudo): {error}");
        }
    }
}
