using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>Cross-origin requests from browsers (CORS), bound from the <c>Cors</c> configuration section.</summary>
public sealed class CorsOptions : IValidatableObject
{
    public const string SectionName = "Cors";

    /// <summary>
    /// The origins whose pages may call the API from a browser (<c>Cors:AllowedOrigins:0=https://app.example.com</c>,
    /// ...): scheme, host and port, no path; <c>*</c> for any. Empty (the default): no CORS headers
    /// at all, so a browser lets only the server's own web page use the API.
    /// </summary>
    public string[] AllowedOrigins { get; set; } = [];

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        foreach (var origin in AllowedOrigins)
        {
            if (origin != "*" && !(Uri.TryCreate(origin, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" && uri.GetLeftPart(UriPartial.Authority) == origin.TrimEnd('/')))
            {
                yield return new ValidationResult($"Cors:AllowedOrigins lists origins as scheme://host[:port] (or *), not '{origin}'.", [nameof(AllowedOrigins)]);
            }
        }
    }
}

/// <summary>
/// Checks the attributes of <see cref="CorsOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class CorsOptionsAttributes : IValidateOptions<CorsOptions>;
