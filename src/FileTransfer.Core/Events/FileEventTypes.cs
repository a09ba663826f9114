namespace FileTransfer.Core;

/// <summary>The kinds of <see cref="FileEvent"/>, as their <see cref="FileEvent.Type"/> spells them (docs/events.md).</summary>
public static class FileEventTypes
{
    public const string FileCreated = "file.created";
    public const string FileReplaced = "file.replaced";
    public const string FileDeleted = "file.deleted";
    public const string UploadStarted = "upload.started";
    public const string UploadCompleted = "upload.completed";
    public const string UploadCancelled = "upload.cancelled";
    public const string UploadExpired = "upload.expired";

    /// <summary>What a pre-upload hook receives (not an event: nothing changed yet).</summary>
    public const string PreUpload = "upload.requested";

    /// <summary>What a pre-commit hook receives: every byte arrived and was verified.</summary>
    public const string PreCommit = "upload.verified";

    public static readonly IReadOnlyList<string> All =
        [FileCreated, FileReplaced, FileDeleted, UploadStarted, UploadCompleted, UploadCancelled, UploadExpired];

    public static bool IsKnown(string type) => All.Contains(type, StringComparer.Ordinal);
}
