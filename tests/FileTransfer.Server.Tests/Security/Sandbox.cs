using System.Security.Cryptography;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// A storage root two folders deep in a sandbox, with canary files at every level above it and
/// links inside it that lead out (to a folder, to a file, dangling, through a chain, in a loop)
/// or stay in. <see cref="AssertOutsideUntouched"/> proves nothing outside the root was written.
/// </summary>
public sealed class Sandbox : IDisposable
{
    private readonly IReadOnlyDictionary<string, string> _outside;

    public Sandbox()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "filetransfer-tests", $"sandbox-{Guid.NewGuid():N}");
        RootPath = Combine("d", "e", "root");
        Directory.CreateDirectory(Combine("d", "e", "root", "inside"));
        Directory.CreateDirectory(Combine("d", "e", "outside"));
        foreach (var canary in new[] { Combine("secret.txt"), Combine("d", "secret.txt"), Combine("d", "e", "secret.txt"), Combine("d", "e", "outside", "secret.txt") })
        {
            File.WriteAllText(canary, Canary);
        }

        File.WriteAllText(Combine("d", "e", "root", "inside", "file.txt"), "inside");
        Link("escape", Combine("d", "e", "outside"));
        Link("relative-escape", "../..");
        Link("secret-link.txt", Combine("secret.txt"));
        Link("dangling", Combine("d", "e", "new-outside"));
        Link("chain", "chain2");
        Link("chain2", Combine("d", "e", "chain-outside"));
        Link("loop", "loop2");
        Link("loop2", "loop");
        Link("inside-alias", "inside");
        Link("dangling-dir", Combine("d", "e", "missing-dir"));
        _outside = Snapshot();
    }

    /// <summary>Content of every canary; a response containing it read a file outside the root.</summary>
    public string Canary { get; } = $"canary-{Guid.NewGuid():N}";

    /// <summary>The sandbox, which holds the root and everything a traversal could reach first.</summary>
    public string Path { get; }

    public string RootPath { get; }

    /// <summary>Every file, folder and link outside the root is as it was at the start: none added, changed or removed.</summary>
    public void AssertOutsideUntouched(string because)
    {
        var now = Snapshot();
        Assert.True(
            now.Count == _outside.Count && now.All(e => _outside.TryGetValue(e.Key, out var before) && before == e.Value),
            $"{because}: outside the root {string.Join(", ", now.Where(e => !_outside.ContainsKey(e.Key) || _outside[e.Key] != e.Value).Select(e => e.Key))} changed");
    }

    /// <summary>What is stored at <paramref name="name"/> inside the root, or null.</summary>
    public byte[]? ReadInside(string name)
    {
        var path = System.IO.Path.Combine(RootPath, name);
        return File.Exists(path) ? File.ReadAllBytes(path) : null;
    }

    private string Combine(params string[] parts) => System.IO.Path.Combine([Path, .. parts]);

    private void Link(string name, string target)
    {
        var link = System.IO.Path.Combine(RootPath, name);
        File.CreateSymbolicLink(link, target);
    }

    // Entries below the sandbox but not below the root, never following links.
    private Dictionary<string, string> Snapshot()
    {
        var entries = new Dictionary<string, string>(StringComparer.Ordinal);
        var pending = new Stack<string>([Path]);
        while (pending.TryPop(out var folder))
        {
            foreach (var entry in new DirectoryInfo(folder).EnumerateFileSystemInfos())
            {
                if (entry.FullName == RootPath)
                {
                    continue;
                }

                if (entry is DirectoryInfo { LinkTarget: null } directory)
                {
                    entries[entry.FullName] = "dir";
                    pending.Push(directory.FullName);
                }
                else
                {
                    entries[entry.FullName] = entry.LinkTarget is { } target
                        ? "link:" + target
                        : $"{((FileInfo)entry).Length}:{Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(entry.FullName)))}:{entry.LastWriteTimeUtc.Ticks}";
                }
            }
        }

        return entries;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A server still holding a file open; the OS cleans temp later.
        }
    }
}
