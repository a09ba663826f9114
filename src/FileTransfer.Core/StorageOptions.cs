using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>Limits every backend enforces, bound from the <c>Storage</c> configuration section.</summary>
public sealed class StorageOptions
{
    public const string SectionName = "Storage";

    /// <summary>Largest file an upload may store (default 100 GiB).</summary>
    [Range(1, long.MaxValue)]
    public long MaxFileSizeBytes { get; set; } = 100L * 1024 * 1024 * 1024;

    /// <summary>
    /// Most files one multipart/form-data request may carry (default 1000). Each is staged until the
    /// request ends, so this bounds what one request holds; a form with more is refused.
    /// </summary>
    [Range(1, 100_000)]
    public int MaxFilesPerRequest { get; set; } = 1000;
}

/// <summary>
/// Checks the attributes of <see cref="StorageOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class StorageOptionsAttributes : IValidateOptions<StorageOptions>;
