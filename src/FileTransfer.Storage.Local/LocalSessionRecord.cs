using System.Diagnostics.CodeAnalysis;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using FileTransfer.Core;

namespace FileTransfer.Storage.Local;

/// <summary>
/// An upload session as the local disk keeps it: one JSON file per session under the reserved
/// <c>.ft-uploads/</c>, written to a temporary file, flushed to disk and renamed over the previous
/// one, so that a reader (or a restarted server) finds either the old record or the new one, never
/// half of one. Besides the session (<see cref="UploadSessionRecord"/>), where its bytes are.
/// </summary>
internal sealed record LocalSessionRecord : UploadSessionRecord
{
    public LocalSessionRecord()
    {
    }

    [SetsRequiredMembers]
    public LocalSessionRecord(UploadSession session, string bytesPath, IReadOnlyList<string> createdFolders)
        : base(session)
    {
        BytesPath = bytesPath;
        CreatedFolders = createdFolders;
    }

    /// <summary>Where the bytes are, relative to the root: a hidden file in the target's folder.</summary>
    public required string BytesPath { get; init; }

    /// <summary>
    /// The folders the session created for its name (relative to the root), removed with it when
    /// empty. Only sessions of earlier versions have any: folders are made at the commit now.
    /// </summary>
    public IReadOnlyList<string> CreatedFolders { get; set; } = []; // settable: see UploadSessionRecord

    protected override JsonTypeInfo JsonTypeInfo => LocalSessionJson.Default.LocalSessionRecord;

    /// <summary>The record at <paramref name="path"/>, or null when there is none (or it is not one of ours).</summary>
    public static LocalSessionRecord? Read(string path)
    {
        try
        {
            using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return Parse(file, LocalSessionJson.Default.LocalSessionRecord);
        }
        catch (Exception ex) when (ex is FileNotFoundException or DirectoryNotFoundException)
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
                file.Write(ToJson());
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

/// <summary>
/// The record's JSON, generated at build time with the default options (<see cref="UploadSessionRecord"/>).
/// Metadata only: the generated fast path writes a null <c>byte[]</c> as <c>""</c> where the
/// reflection-based serializer wrote <c>null</c> (PersistedJsonTests).
/// </summary>
[JsonSourceGenerationOptions(GenerationMode = JsonSourceGenerationMode.Metadata)]
[JsonSerializable(typeof(LocalSessionRecord))]
internal sealed partial class LocalSessionJson : JsonSerializerContext;
