namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>A fresh folder under the system's temporary folder, removed when disposed.</summary>
internal sealed class TempFolder : IDisposable
{
    public TempFolder()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "filetransfer-core-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    /// <summary>Where the '/' separated <paramref name="name"/> lies below the folder.</summary>
    public string PathOf(string name) => System.IO.Path.Join([Path, .. name.Split('/')]);

    /// <summary>Writes <paramref name="bytes"/> at <paramref name="name"/>, creating its folders.</summary>
    public void Write(string name, byte[] bytes)
    {
        var path = PathOf(name);
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, bytes);
    }

    /// <summary>Every entry below the folder (files, folders and links), relative and '/' separated, in order.</summary>
    public IReadOnlyList<string> Entries() =>
        [.. Directory.EnumerateFileSystemEntries(Path, "*", SearchOption.AllDirectories)
            .Select(p => System.IO.Path.GetRelativePath(Path, p).Replace(System.IO.Path.DirectorySeparatorChar, '/'))
            .Order(StringComparer.Ordinal)];

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // Still held open somewhere; the OS cleans its temporary folder later.
        }
    }
}
