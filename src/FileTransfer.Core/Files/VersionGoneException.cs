namespace FileTransfer.Core;

/// <summary>
/// A read of an opened version failed because the name holds another version by now (or none), on a
/// medium that cannot keep a replaced version for its readers (an object store). The read is refused
/// rather than answered with the other version's bytes (<see cref="IOpenedObject.OpenReadAsync"/>).
/// A <see cref="StorageReadException"/>; both protocols answer it as a storage failure the client may
/// retry (<see cref="ErrorReason.StorageUnavailable"/>), where the new version is served.
/// </summary>
public sealed class VersionGoneException(string name, string etag, Exception? inner = null)
    : StorageReadException($"'{name}' was replaced or deleted after it was opened; its version {etag} can no longer be read.", inner)
{
    public string Name { get; } = name;

    /// <summary>The refusal a client sees: the storage changed under the read; reading again gets the current version.</summary>
    public override FileTransferException ToRefusal() =>
        Failures.Unavailable($"'{Name}' was replaced or deleted while it was being read; read it again.", this);
}
