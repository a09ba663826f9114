using System.ComponentModel.DataAnnotations;

namespace FileTransfer.Storage.Local;

/// <summary>Settings of the local-disk backend, bound from the <c>Storage</c> configuration section.</summary>
public sealed class LocalStorageOptions
{
    /// <summary>Folder that holds the files; relative paths are resolved against the content root.</summary>
    [Required]
    public string RootPath { get; set; } = "storage";
}
