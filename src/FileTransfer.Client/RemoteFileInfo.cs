namespace FileTransfer.Client;

/// <summary>A file on the server, as a listing, an info request or a transfer describes it.</summary>
public sealed class RemoteFileInfo
{
    /// <summary>Path relative to the storage root, '/' separated.</summary>
    public required string Name { get; init; }

    /// <summary>Size of the whole file in bytes.</summary>
    public required long Size { get; init; }

    /// <summary>Media type derived from the extension.</summary>
    public string? ContentType { get; init; }

    /// <summary>Last modification time (UTC).</summary>
    public DateTimeOffset? LastModified { get; init; }

    /// <summary>Strong entity tag including its quotes, the same value over REST (<c>ETag</c>) and gRPC; use it with <c>ifMatch</c>.</summary>
    public string? ETag { get; init; }

    /// <summary>SHA-256 of the whole file (32 bytes) when the server announced it (REST <c>Repr-Digest</c>, gRPC <c>sha256</c>).</summary>
    public byte[]? Sha256 { get; init; }

    /// <summary>The HTTP version of the response that carried this description (gRPC: always 2.0).</summary>
    public Version? HttpVersion { get; init; }
}
