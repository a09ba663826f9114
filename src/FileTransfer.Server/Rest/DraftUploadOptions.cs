using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>The IETF resumable-upload draft on REST, bound from the <c>Uploads</c> configuration section.</summary>
public sealed class DraftUploadOptions : IValidatableObject
{
    /// <summary>
    /// What is served when <see cref="DraftInteropVersions"/> is not set: 3 (draft 01: Apple URLSession
    /// on iOS 17, which sends <c>Upload-Incomplete</c>), 5 (draft 03: tus-js-client's
    /// <c>ietf-draft-03</c>), 6 (drafts 04-05: tus-js-client's <c>ietf-draft-05</c>, URLSession on iOS
    /// 18), 7 (drafts 06-08) and 8 (drafts 09 onwards, the newest the draft text defines as of this
    /// release). Version 4 (draft 02) has no shipping client.
    /// </summary>
    public static readonly IReadOnlyList<int> DefaultInteropVersions = [3, 5, 6, 7, 8];

    /// <summary>
    /// The <c>Upload-Draft-Interop-Version</c> values accepted (configure as
    /// <c>Uploads:DraftInteropVersions:0=8</c>, ...); null for <see cref="DefaultInteropVersions"/>.
    /// A request with another version and <c>Upload-Complete: ?1</c> is stored as a plain upload;
    /// one that asks to be resumed is refused with 412.
    /// </summary>
    public int[]? DraftInteropVersions { get; set; }

    /// <summary>The versions in force.</summary>
    public IReadOnlyList<int> InteropVersions => DraftInteropVersions ?? DefaultInteropVersions;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (InteropVersions.Any(version => version is < 1 or > 1000))
        {
            yield return new ValidationResult("Uploads:DraftInteropVersions lists interop versions from 1 to 1000.", [nameof(DraftInteropVersions)]);
        }
    }
}

/// <summary>
/// Checks the attributes of <see cref="DraftUploadOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class DraftUploadOptionsAttributes : IValidateOptions<DraftUploadOptions>;
