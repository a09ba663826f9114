namespace FileTransfer.Server.Storage;

/// <summary>Why an upload was not stored. Each protocol maps these to its own status codes.</summary>
internal enum UploadError
{
    /// <summary>More bytes than the size limit allows (REST 413, gRPC RESOURCE_EXHAUSTED).</summary>
    TooLarge,

    /// <summary>The bytes do not have the SHA-256 the client or link announced (REST 400, gRPC DATA_LOSS).</summary>
    DigestMismatch,

    /// <summary>Fewer or more bytes arrived than the client declared (REST 400, gRPC DATA_LOSS).</summary>
    LengthMismatch,

    /// <summary>The storage volume is full (REST 507, gRPC RESOURCE_EXHAUSTED).</summary>
    DiskFull,

    /// <summary>The client asked not to replace an existing file, and it exists (REST 412, gRPC ALREADY_EXISTS).</summary>
    AlreadyExists,

    /// <summary>If-Match did not hold: the file changed or is gone (REST 412, gRPC FAILED_PRECONDITION).</summary>
    PreconditionFailed,

    /// <summary>The name is taken by a folder, or a folder in the name is a file (REST 409, gRPC FAILED_PRECONDITION).</summary>
    NameConflict,
}

/// <summary>An upload refused for a reason the client can act on; nothing of it was stored.</summary>
internal sealed class UploadException(UploadError error, string message, Exception? inner = null)
    : Exception(message, inner)
{
    public UploadError Error { get; } = error;
}
