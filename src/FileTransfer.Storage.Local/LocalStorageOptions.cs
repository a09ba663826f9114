using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.Local;

/// <summary>Settings of the local-disk backend, bound from the <c>Storage</c> configuration section.</summary>
public sealed class LocalStorageOptions
{
    /// <summary>Folder that holds the files; relative paths are resolved against the content root.</summary>
    [Required]
    public string RootPath { get; set; } = "storage";

    /// <summary>
    /// How many read handles of recently downloaded files stay open for the next read of the same
    /// version (Linux; <see cref="OpenFileCache"/>); 0 opens every read afresh. Each is a descriptor.
    /// </summary>
    [Range(0, 4096)]
    public int OpenFiles { get; set; } = DefaultOpenFiles;

    /// <summary>The default of <see cref="OpenFiles"/>: half of the descriptors the server keeps in reserve.</summary>
    public const int DefaultOpenFiles = 64;
}

/// <summary>
/// Checks the attributes of <see cref="LocalStorageOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class LocalStorageOptionsAttributes : IValidateOptions<LocalStorageOptions>;
