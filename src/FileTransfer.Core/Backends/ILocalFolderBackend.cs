namespace FileTransfer.Core;

/// <summary>
/// What a backend whose files are a folder of this machine's disk offers besides
/// <see cref="IStorageBackend"/>: whether a path lies in what it serves, judged with the backend's own
/// path rules (links followed as the operating system follows them). A host asks it before it keeps
/// anything private on the same disk (the development key), so that no client can download it.
/// Optional: an object store's files are on no local folder, and it does not implement it.
/// </summary>
public interface ILocalFolderBackend
{
    /// <summary>
    /// True when <paramref name="path"/> (absolute, any spelling) is the served folder or lies below
    /// it, and also when its links cannot be resolved safely: a file kept there might be served.
    /// </summary>
    bool MayServe(string path);
}
