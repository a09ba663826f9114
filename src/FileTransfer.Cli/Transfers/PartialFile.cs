namespace FileTransfer.Cli.Transfers;

/// <summary>
/// A download in progress: the bytes so far in <c>PATH.part</c>, and beside it
/// (<c>PATH.part.etag</c>) the ETag they belong to, sent as <c>If-Range</c> when resuming so that a
/// file changed on the server is sent whole instead of being spliced (RFC 9110 13.1.5).
/// Renamed to PATH only after the whole file arrived and its digest matched.
/// </summary>
internal sealed class PartialFile(string outputPath)
{
    public string OutputPath { get; } = Path.GetFullPath(outputPath);

    public string PartPath => OutputPath + ".part";

    private string ValidatorPath => PartPath + ".etag";

    /// <summary>Bytes already downloaded (0 when there is no partial file).</summary>
    public long Length => File.Exists(PartPath) ? new FileInfo(PartPath).Length : 0;

    /// <summary>The ETag the partial bytes came from, or null when unknown (e.g. left by another tool).</summary>
    public string? Validator => File.Exists(ValidatorPath) ? File.ReadAllText(ValidatorPath).Trim() : null;

    public void SaveValidator(string? eTag)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(OutputPath)!);
        if (eTag is null)
        {
            File.Delete(ValidatorPath);
        }
        else
        {
            File.WriteAllText(ValidatorPath, eTag);
        }
    }

    /// <summary>Opens the part file for writing from <paramref name="offset"/>, dropping anything after it.</summary>
    public FileStream Open(long offset)
    {
        var stream = new FileStream(PartPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0, FileOptions.SequentialScan);
        stream.SetLength(offset);
        return stream;
    }

    /// <summary>Forgets the partial bytes, e.g. when they failed the digest check.</summary>
    public void Discard()
    {
        File.Delete(PartPath);
        File.Delete(ValidatorPath);
    }

    /// <summary>The download is complete and verified: it becomes the output file.</summary>
    public void Commit()
    {
        File.Move(PartPath, OutputPath, overwrite: true);
        File.Delete(ValidatorPath);
    }
}
