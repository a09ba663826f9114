using System.Diagnostics.CodeAnalysis;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// An upload session as the bucket keeps it: one small JSON object per session, replaced whole by
/// each save (a PutObject is atomic: a reader finds the old record or the new one). Besides the
/// session (<see cref="UploadSessionRecord"/>), where its bytes are: the multipart upload of the
/// target's key and the parts in it that count, then a tail shorter than a part in an object of its own.
/// </summary>
internal sealed record S3SessionRecord : UploadSessionRecord
{
    public S3SessionRecord()
    {
    }

    [SetsRequiredMembers]
    public S3SessionRecord(UploadSession session)
        : base(session)
    {
    }

    /// <summary>The multipart upload of the target's key holding the parts, once the first part went up.</summary>
    public string? UploadId { get; init; }

    /// <summary>The parts that count, in order: a part uploaded but not listed here (a write never saved) is ignored and later overwritten.</summary>
    public IReadOnlyList<S3SessionPart> Parts { get; set; } = []; // settable: see UploadSessionRecord

    /// <summary>The object holding the saved bytes after the last part, or null when there are none.</summary>
    public string? TailKey { get; init; }

    public int TailLength { get; init; }

    protected override JsonTypeInfo JsonTypeInfo => S3SessionJson.Default.S3SessionRecord;

    /// <summary>The record in <paramref name="json"/>, or null when it is not one of ours.</summary>
    public static S3SessionRecord? Parse(Stream json) => Parse(json, S3SessionJson.Default.S3SessionRecord);
}

/// <summary>One part of a session's multipart upload: its number, the ETag the completion names it by, and its size.</summary>
internal sealed record S3SessionPart(int Number, string ETag, int Size);

/// <summary>
/// The record's JSON, generated at build time with the default options (<see cref="UploadSessionRecord"/>).
/// Metadata only: the generated fast path writes a null <c>byte[]</c> as <c>""</c> where the
/// reflection-based serializer wrote <c>null</c> (PersistedJsonTests).
/// </summary>
[JsonSourceGenerationOptions(GenerationMode = JsonSourceGenerationMode.Metadata)]
[JsonSerializable(typeof(S3SessionRecord))]
internal sealed partial class S3SessionJson : JsonSerializerContext;
