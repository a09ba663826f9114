using System.Text.Json;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// An upload session as the local disk keeps it: one JSON file per session under the reserved
/// <c>.ft-uploads/</c>, written to a temporary file, flushed to disk and renamed over the previous
/// one, so that a reader (or a restarted server) finds either the old record or the new one, never
/// half of one. Its own shape, not the core's type, so that the file format changes only on purpose.
/// </summary>
internal sealed record LocalSessionRecord
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

    /// <summary>Where the bytes are, relative to the root: a hidden file in the target's folder.</summary>
    public required string BytesPath { get; init; }

    /// <summary>The folders the session created for its name (relative to the root), removed with it when empty.</summary>
    public IReadOnlyList<string> CreatedFolders { get; init; } = [];

    public static LocalSessionRecord From(UploadSession session, string bytesPath, IReadOnlyList<string> createdFolders) => new()
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
        BytesPath = bytesPath,
        CreatedFolders = createdFolders,
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

    /// <summary>The record at <paramref name="path"/>, or null when there is none (or it is not one of ours).</summary>
    public static LocalSessionRecord? Read(string path)
    {
        try
        {
            using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return JsonSerializer.Deserialize<LocalSessionRecord>(file) is { Version: 1 } record ? record : null;
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException or JsonException)
        {
            return null;
        }
    }

    /// <summary>Replaces the record at <paramref name="path"/> durably: temporary file, flushed to disk, renamed over it.</summary>
    public void Write(string path)
    {
        var temp = $"{path}.{Guid.NewGuid():N}.tmp";
        try
        {
            using (var file = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                JsonSerializer.Serialize(file, this);
                file.Flush(flushToDisk: true);
            }

            File.Move(temp, path, overwrite: true);
        }
        catch (IOException ex) when (LocalStorageBackend.IsDiskFull(ex))
        {
            File.Delete(temp);
            throw Failures.StorageFull(ex);
        }
        catch
        {
            File.Delete(temp);
            throw;
        }
    }
}
