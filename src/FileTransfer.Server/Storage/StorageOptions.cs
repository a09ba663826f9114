using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Server.Storage;

/// <summary>Settings of the storage root, bound from the <c>Storage</c> configuration section.</summary>
public sealed class StorageOptions
{
    public const string SectionName = "Storage";

    /// <summary>Folder that holds the files; relative paths are resolved against the content root.</summary>
    [Required]
    public string RootPath { get; set; } = "storage";

    /// <summary>Largest file an upload may store (default 100 GiB).</summary>
    [Range(1, long.MaxValue)]
    public long MaxFileSizeBytes { get; set; } = 100L * 1024 * 1024 * 1024;
}
