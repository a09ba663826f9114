using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.Local;

/// <summary>Settings of the local-disk backend, bound from the <c>Storage</c> configuration section.</summary>
public sealed class LocalStorageOptions
{
    /// <summary>Folder that holds the files; relative paths are resolved against the content root.</summary>
    [Required]
    public string RootPath { get; set; } = "storage";
}

/// <summary>
/// Checks the attributes of <see cref="LocalStorageOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class LocalStorageOptionsAttributes : IValidateOptions<LocalStorageOptions>;
