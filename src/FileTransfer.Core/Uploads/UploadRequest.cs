namespace FileTransfer.Core;

/// <summary>What a client asks to store, with the limits and checks that apply before commit.</summary>
/// <param name="Name">The name to store under; checked against <see cref="FileNames"/> when the upload begins.</param>
public sealed record UploadRequest(string Name)
{
    /// <summary>Size the client announced (Content-Length, gRPC metadata); checked up front and at the end.</summary>
    public long? DeclaredLength { get; init; }

    /// <summary>A cap narrower than <see cref="StorageOptions.MaxFileSizeBytes"/>, e.g. from a signed link.</summary>
    public long? MaxBytes { get; init; }

    /// <summary>SHA-256 the stored bytes must have (Content-Digest, gRPC metadata, signed link).</summary>
    public byte[]? ExpectedSha256 { get; init; }

    /// <summary>What must hold of the existing file, up front and again, atomically, at commit.</summary>
    public Preconditions Preconditions { get; init; } = Preconditions.None;

    /// <summary>The protocol request the bytes arrive on: the upload is counted as its transfer. Null: not counted.</summary>
    public TransferOrigin? TransferOrigin { get; init; }

    /// <summary>
    /// The protocol that carries it, as events and hooks report it (never decided on). It differs from
    /// <see cref="TransferOrigin"/>'s metrics tag only for the web page, whose tus requests report <c>web</c>.
    /// </summary>
    public TransferProtocol Protocol { get; init; }
}

/// <summary>A committed upload: the stored version, its SHA-256, and whether it replaced a file.</summary>
public sealed record UploadResult(FileVersion File, byte[] Sha256, bool Replaced);
