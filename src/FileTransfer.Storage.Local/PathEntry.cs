namespace FileTransfer.Storage.Local;

/// <summary>What a path names itself, a link at its end not followed (<see cref="FileIdentity.Probe"/>).</summary>
internal enum PathEntry
{
    /// <summary>The probe failed for another reason than a missing entry (no permission, an I/O error).</summary>
    Unknown,

    /// <summary>Nothing there, or a part before the last is not a folder (ENOENT, ENOTDIR).</summary>
    Missing,

    Link,
    Folder,
    RegularFile,

    /// <summary>A device, a pipe or a socket.</summary>
    Other,
}
