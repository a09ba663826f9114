namespace FileTransfer.Client.Transfers;

/// <summary>
/// A download in progress: the bytes so far in <c>PATH.part</c>, and beside it
/// (<c>PATH.part.etag</c>) the ETag they belong to, so that a file changed on the server is sent
/// whole instead of being spliced (REST <c>If-Range</c>, RFC 9110 13.1.5; gRPC <c>if_match</c>).
/// Renamed to PATH only after the whole file arrived and its digest matched.
/// </summary>
internal sealed class PartialFile(string outputPath)
{
    public string OutputPath { get; } = Path.GetFullPath(outputPath);

    public string PartPath => OutputPath + ".part";

    private string ValidatorPath => PartPath + ".etag";

    /// <summary>The ETag the partial bytes came from, or null when unknown (e.g. left by another tool).</summary>
    public string? Validator => File.Exists(ValidatorPath) ? File.ReadAllText(ValidatorPath).Trim() : null;

    public void SaveValidator(string? eTag)
    {
        if (eTag is null)
        {
            File.Delete(ValidatorPath);
        }
        else
        {
            File.WriteAllText(ValidatorPath, eTag);
        }
    }

    /// <summary>Opens the part file (created empty when there is none) for reading what is there and appending.</summary>
    public FileStream Open()
    {
        Directory.CreateDirectory(Path.GetDirectoryName(OutputPath)!);
        return new FileStream(PartPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0, FileOptions.Asynchronous | FileOptions.SequentialScan);
    }

    /// <summary>Forgets the partial bytes, e.g. when they failed the digest check.</summary>
    public void Discard()
    {
        File.Delete(PartPath);
        File.Delete(ValidatorPath);
    }

    /// <summary>Forgets a part that holds no byte: nothing to resume, nothing to leave behind.</summary>
    public void DiscardIfEmpty()
    {
        if (File.Exists(PartPath) && new FileInfo(PartPath).Length == 0)
        {
            Discard();
        }
    }

    /// <summary>The download is complete and verified: it becomes the output file.</summary>
    public void Commit()
    {
        File.Move(PartPath, OutputPath, overwrite: true);
        File.Delete(ValidatorPath);
    }
}
