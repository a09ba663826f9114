using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Core;

/// <summary>
/// Quotas on folders, bound from the <c>Quotas</c> section as a list: <c>Quotas:0:Path</c>,
/// <c>Quotas:0:MaxBytes</c>, <c>Quotas:0:MaxFiles</c>. Empty (the default): no quota, and no cost.
/// </summary>
public sealed class QuotaOptions : List<QuotaRule>
{
    public const string SectionName = "Quotas";

    /// <summary>Startup check of what data annotations cannot reach (list items, paths, duplicates).</summary>
    public IEnumerable<string> Problems()
    {
        for (var i = 0; i < Count; i++)
        {
            if (Grants.Normalize(this[i].Path) is null)
            {
                yield return $"Quotas:{i}:Path ('{this[i].Path}') is not a folder a client could name.";
            }

            if (this[i].MaxBytes < 0)
            {
                yield return $"Quotas:{i}:MaxBytes must not be negative.";
            }

            if (this[i].MaxFiles < 0)
            {
                yield return $"Quotas:{i}:MaxFiles must not be negative.";
            }
        }

        if (this.Select(rule => Grants.Normalize(rule.Path)).Distinct(StringComparer.Ordinal).Count() != Count)
        {
            yield return "Quotas lists the same folder twice.";
        }
    }
}

/// <summary>One folder's quota.</summary>
public sealed class QuotaRule
{
    /// <summary>The folder (<c>teams/a/</c>; empty for the whole tree).</summary>
    [Required(AllowEmptyStrings = true)]
    public string Path { get; set; } = "";

    /// <summary>Most bytes the folder may hold, stored and on their way.</summary>
    public long MaxBytes { get; set; }

    /// <summary>Most files the folder may hold, stored and on their way; null for no limit.</summary>
    public long? MaxFiles { get; set; }

    internal string Folder => Grants.Normalize(Path)!;
}

/// <summary>A folder's usage and its limits, as <c>GET api/usage</c> and gRPC <c>GetUsage</c> answer it.</summary>
/// <param name="Path">The folder.</param>
/// <param name="UsedBytes">Bytes of the stored files plus what unfinished uploads have reserved.</param>
/// <param name="UsedFiles">Stored files plus unfinished uploads.</param>
/// <param name="MaxBytes">The limit on bytes.</param>
/// <param name="MaxFiles">The limit on files, or null.</param>
public sealed record QuotaUsage(string Path, long UsedBytes, long UsedFiles, long MaxBytes, long? MaxFiles);
