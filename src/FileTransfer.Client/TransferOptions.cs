namespace FileTransfer.Client;

/// <summary>How <see cref="FileTransferClient.DownloadAsync"/> treats bytes already in the destination.</summary>
public sealed class DownloadOptions
{
    /// <summary>
    /// Continue after the bytes already in the destination instead of writing from its current
    /// position. The destination must then be readable, writable and seekable: the bytes already
    /// there are hashed so that the whole file is verified, and if the file changed on the server
    /// (see <see cref="IfMatch"/>) the destination is cut to zero and written again.
    /// </summary>
    public bool Resume { get; init; }

    /// <summary>
    /// With <see cref="Resume"/>: the ETag of the file the bytes already there came from (e.g.
    /// <see cref="RemoteFileInfo.ETag"/> from <see cref="FileTransferClient.GetInfoAsync"/> before the
    /// first attempt). When the file no longer has it, the download starts over. Null: the bytes
    /// are resumed as they are and only the final digest check guards them.
    /// </summary>
    public string? IfMatch { get; init; }

    /// <summary>Called with the file's ETag as soon as the server announced it, before any byte is written; used to remember it beside partial bytes.</summary>
    public Action<string?>? OnETag { get; init; }
}

/// <summary>How <see cref="FileTransferClient.UploadAsync"/> stores a file.</summary>
public sealed class UploadOptions
{
    /// <summary>Replace an existing file of the same name (the default). False: fail with <see cref="FileTransferErrorKind.AlreadyExists"/> instead.</summary>
    public bool Overwrite { get; init; } = true;

    /// <summary>
    /// SHA-256 of the content (32 bytes), when the caller knows it. Otherwise a seekable stream is
    /// read once to compute it; a stream that cannot seek is hashed while it is sent, so the server
    /// cannot verify it before it commits (the result is still compared afterwards).
    /// </summary>
    public byte[]? Sha256 { get; init; }

    /// <summary>
    /// For <see cref="FileTransferClient.UploadFileAsync"/>: a folder where the client remembers
    /// unfinished uploads. When set, the file is sent as a resumable upload (REST: tus at
    /// <c>api/uploads</c>; gRPC: StartUpload and WriteUpload, the same sessions), and a later upload of
    /// the same local file to the same name and server, after a crash or a kill, continues from the
    /// offset the server holds durably, over either protocol (progress then starts at
    /// <see cref="TransferProgress.StartedAt"/>). Null (the default): one atomic request.
    /// </summary>
    public string? ResumeStateDirectory { get; init; }
}
