using Microsoft.Net.Http.Headers;

namespace FileTransfer.Server.Storage;

/// <summary>What a client asks to store, with the limits and checks that apply before commit.</summary>
internal sealed record UploadRequest(StoragePath Target)
{
    /// <summary>Size the client announced (Content-Length, gRPC metadata); checked up front and at the end.</summary>
    public long? DeclaredLength { get; init; }

    /// <summary>A cap narrower than <see cref="StorageOptions.MaxFileSizeBytes"/>, e.g. from a signed link.</summary>
    public long? MaxBytes { get; init; }

    /// <summary>SHA-256 the stored bytes must have (Content-Digest, gRPC metadata, signed link).</summary>
    public byte[]? ExpectedSha256 { get; init; }

    /// <summary>Refuse to replace an existing file (If-None-Match: *).</summary>
    public bool MustNotExist { get; init; }

    /// <summary>Replace only a file whose ETag is one of these (If-Match); "*" matches any existing file.</summary>
    public IReadOnlyList<EntityTagHeaderValue>? IfMatch { get; init; }
}
