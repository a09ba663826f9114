namespace FileTransfer.Core;

/// <summary>
/// A read of an opened version failed because the storage did (an object store that stopped
/// answering, or stopped sending in the middle of a body), not because of the request. An
/// <see cref="IOException"/>, as <see cref="IOpenedObject.OpenReadAsync"/> promises, that carries
/// the refusal a client sees: both protocols answer it as <see cref="ErrorReason.StorageUnavailable"/>
/// (the client may retry) where no byte was sent yet, and end the transfer (a cut, or gRPC
/// <c>UNAVAILABLE</c>) where some were.
/// </summary>
public class StorageReadException(string message, Exception? inner = null) : IOException(message, inner)
{
    /// <summary>The refusal a client sees: the storage failed under the read; reading again may succeed.</summary>
    public virtual FileTransferException ToRefusal() => Failures.Unavailable(Message, this);
}
