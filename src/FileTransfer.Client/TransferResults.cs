namespace FileTransfer.Client;

/// <summary>Why a resumed download began again at byte 0.</summary>
public enum DownloadRestartReason
{
    /// <summary>It did not start over.</summary>
    None,

    /// <summary>The file changed on the server since the bytes already there were written (their ETag no longer matches).</summary>
    FileChanged,

    /// <summary>The bytes already there are longer than the file now is, so they cannot be a prefix of it.</summary>
    PartLongerThanFile,
}

/// <summary>What a finished, verified download produced.</summary>
public sealed class DownloadResult
{
    /// <summary>The file as the server described it when the transfer (or its last retry) started.</summary>
    public required RemoteFileInfo File { get; init; }

    /// <summary>Bytes of the whole file now in the destination.</summary>
    public required long Length { get; init; }

    /// <summary>SHA-256 of the whole file as received (including a resumed prefix).</summary>
    public required byte[] Sha256 { get; init; }

    /// <summary>True when the server announced a SHA-256 and it matched; false when it announced none (nothing to check against).</summary>
    public required bool Verified { get; init; }

    /// <summary>Where the first request started: the length of the bytes already there, 0 for a fresh download.</summary>
    public long ResumedAt { get; init; }

    /// <summary>Whether, and why, bytes that were already there were discarded.</summary>
    public DownloadRestartReason Restarted { get; init; }

    /// <summary>True when bytes already there were resumed without an ETag to check them against (the digest check is then the only check).</summary>
    public bool ResumedWithoutETag { get; init; }

    /// <summary>How often a dropped connection was resumed.</summary>
    public int Retries { get; init; }

    /// <summary>With <see cref="FileTransferClient.DownloadToFileAsync"/>: the full path of the file written.</summary>
    public string? Path { get; init; }
}

/// <summary>What a finished upload stored.</summary>
public sealed class UploadResult
{
    /// <summary>The stored file as the server describes it.</summary>
    public required RemoteFileInfo File { get; init; }

    /// <summary>SHA-256 of the bytes sent, which the server stored.</summary>
    public required byte[] Sha256 { get; init; }

    /// <summary>True when the server verified the digest before it committed the file (it was known before the upload started).</summary>
    public required bool VerifiedBeforeCommit { get; init; }

    /// <summary>REST: true for 201 Created, false for 200 (replaced). gRPC does not say: null.</summary>
    public bool? Created { get; init; }

    /// <summary>A resumable upload (<see cref="UploadOptions.ResumeStateDirectory"/>): the bytes the server already held when this run began; 0 otherwise.</summary>
    public long ResumedAt { get; init; }
}
