using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace FileTransfer.Core;

/// <summary>
/// An upload session as a store persists it, in JSON: the fields of <see cref="UploadSession"/> in
/// a shape of their own, so that the format changes only on purpose, never with the core's type. A
/// backend's record derives from it and adds only where it keeps the bytes. The property names are
/// the format that every server sharing the store reads back. A member with an initial value is
/// settable, not init-only: the generated JSON reader sets every init-only member, one missing from
/// the JSON to its type's default, where the reflection-based reader of earlier builds left it at
/// its initial value (PersistedJsonTests).
/// </summary>
public abstract record UploadSessionRecord
{
    /// <summary>Builds an empty record, for the JSON reader.</summary>
    protected UploadSessionRecord()
    {
    }

    /// <summary>Builds the record of <paramref name="session"/>.</summary>
    [SetsRequiredMembers]
    protected UploadSessionRecord(UploadSession session)
    {
        Id = session.Id;
        Name = session.Name;
        Owner = session.Owner;
        CreatedAt = session.CreatedAt;
        ExpiresAt = session.ExpiresAt;
        Length = session.Length;
        Offset = session.Offset;
        MaxBytes = session.MaxBytes;
        ExpectedSha256 = session.ExpectedSha256;
        MustNotExist = session.Preconditions.MustNotExist;
        IfMatch = session.Preconditions.IfMatch;
        Metadata = session.Metadata;
        HashState = session.HashState;
        Completed = session.Completed?.Stored;
        Replaced = session.Completed?.Replaced ?? false;
    }

    /// <summary>The format; a record of another version is not read.</summary>
    public int Version { get; set; } = 1;

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

    public byte[] HashState { get; set; } = [];

    public StoredObject? Completed { get; init; }

    public bool Replaced { get; init; }

    /// <summary>The session this record keeps.</summary>
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

    /// <summary>
    /// The backend's own record type as its JSON context describes it (generated at build time, with
    /// the default options: a server published with Native AOT cannot serialize by reflection).
    /// </summary>
    protected abstract JsonTypeInfo JsonTypeInfo { get; }

    /// <summary>The record as UTF-8 JSON, with the fields of the backend's own record.</summary>
    public byte[] ToJson() => JsonSerializer.SerializeToUtf8Bytes(this, JsonTypeInfo);

    /// <summary>The record of type <typeparamref name="T"/> in <paramref name="json"/>, or null when it is not one of ours.</summary>
    protected static T? Parse<T>(Stream json, JsonTypeInfo<T> typeInfo)
        where T : UploadSessionRecord
    {
        try
        {
            return JsonSerializer.Deserialize(json, typeInfo) is { Version: 1 } record ? record : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
