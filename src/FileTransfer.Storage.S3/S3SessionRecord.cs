using System.Text.Json;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// An upload session as the bucket keeps it: one small JSON object per session, replaced whole by
/// each save (a PutObject is atomic: a reader finds the old record or the new one). Besides what the
/// core saves, where its bytes are: the multipart upload of the target's key and the parts in it
/// that count, then a tail shorter than a part in an object of its own. Its own shape, not the
/// core's type, so that the format changes only on purpose.
/// </summary>
internal sealed record S3SessionRecord
{
    public int Version { get; init; } = 1;

    public required string Id { get; init; }

    public required string Name { get; init; }

    public required string Owner { get; init; }

    public DateTimeOffset CreatedAt { get; init; }

    public DateTimeOffset ExpiresAt { get; init; }

    public long? Length { get; init; }

    public long Offset { get; init; }

    public long MaxBytes { get; init; }

    public byte[]? ExpectedSha256 { get; init; }

    public bool MustNotExist { get; init; }

    public IReadOnlyList<string>? IfMatch { get; init; }

    public string? Metadata { get; init; }

    public byte[] HashState { get; init; } = [];

    public StoredObject? Completed { get; init; }

    public bool Replaced { get; init; }

    /// <summary>The multipart upload of the target's key holding the parts, once the first part went up.</summary>
    public string? UploadId { get; init; }

    /// <summary>The parts that count, in order: a part uploaded but not listed here (a write never saved) is ignored and later overwritten.</summary>
    public IReadOnlyList<S3SessionPart> Parts { get; init; } = [];

    /// <summary>The object holding the saved bytes after the last part, or null when there are none.</summary>
    public string? TailKey { get; init; }

    public int TailLength { get; init; }

    public static S3SessionRecord From(UploadSession session) => new()
    {
        Id = session.Id,
        Name = session.Name,
        Owner = session.Owner,
        CreatedAt = session.CreatedAt,
        ExpiresAt = session.ExpiresAt,
        Length = session.Length,
        Offset = session.Offset,
        MaxBytes = session.MaxBytes,
        ExpectedSha256 = session.ExpectedSha256,
        MustNotExist = session.Preconditions.MustNotExist,
        IfMatch = session.Preconditions.IfMatch,
        Metadata = session.Metadata,
        HashState = session.HashState,
        Completed = session.Completed?.Stored,
        Replaced = session.Completed?.Replaced ?? false,
    };

    public UploadSession ToSession() => new(Id, Name, Owner, CreatedAt, ExpiresAt)
    {
        Length = Length,
        Offset = Offset,
        MaxBytes = MaxBytes,
        ExpectedSha256 = ExpectedSha256,
        Preconditions = new Preconditions(MustNotExist, IfMatch),
        Metadata = Metadata,
        HashState = HashState,
        Completed = Completed is { } stored ? new CompletedUpload(stored, Replaced) : null,
    };

    public byte[] ToJson() => JsonSerializer.SerializeToUtf8Bytes(this);

    /// <summary>The record in <paramref name="json"/>, or null when it is not one of ours.</summary>
    public static S3SessionRecord? Parse(Stream json)
    {
        try
        {
            return JsonSerializer.Deserialize<S3SessionRecord>(json) is { Version: 1 } record ? record : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>One part of a session's multipart upload: its number, the ETag the completion names it by, and its size.</summary>
internal sealed record S3SessionPart(int Number, string ETag, int Size);
