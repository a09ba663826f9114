using System.ComponentModel.DataAnnotations;
using System.Diagnostics.CodeAnalysis;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>Who may do what, bound from the <c>Auth</c> configuration section.</summary>
public sealed class AuthOptions
{
    public const string SectionName = "Auth";

    // The attribute constructors below are marked RequiresUnreferencedCode for their reflection path
    // (a TypeConverter for the TimeSpan ranges, Count by reflection for the lengths), taken only when
    // something reads the attributes by reflection (ValidateDataAnnotations, which warns itself). Nothing
    // does: AuthOptionsAttributes, generated at build time, checks them with its own copies, and
    // the AOT compiler reports no use of these attributes in the published server.
    private const string GeneratedCheck = "Checked by the generated AuthOptionsAttributes; nothing reads these attributes by reflection.";

    /// <summary>
    /// API keys and the scopes each grants. As environment variables:
    /// <c>Auth__ApiKeys__0__Key=...</c>, <c>Auth__ApiKeys__0__Scopes__0=read</c>.
    /// </summary>
    public List<ApiKeyOptions> ApiKeys { get; set; } = [];

    /// <summary>Lets requests without a key read (list, GET, HEAD). Writes and deletes always need a key.</summary>
    public bool AllowAnonymousRead { get; set; }

    /// <summary>
    /// In the Development environment with no key configured, use a key with every scope, kept
    /// across restarts (<see cref="DevelopmentKeyFolder"/>), and log it, so that a newcomer's first
    /// upload works. Never happens in other environments.
    /// </summary>
    public bool GenerateDevelopmentKey { get; set; } = true;

    /// <summary>
    /// Folder that keeps the development key across restarts, one owner-only file per storage root.
    /// Default: <c>$XDG_DATA_HOME/FileTransfer/development-keys</c> (<c>~/.local/share/...</c>), or
    /// <c>%LOCALAPPDATA%\FileTransfer\development-keys</c>. Created 0700; an existing folder that
    /// other users can open, or one inside the storage root, is not used.
    /// </summary>
    public string? DevelopmentKeyFolder { get; set; }

    /// <summary>
    /// Secret that signs links (HMAC-SHA256), at least 32 characters. When unset, a random key is
    /// made per process: links then stop working when the server restarts.
    /// </summary>
    [MinLength(32)]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public string? SigningKey { get; set; }

    /// <summary>Tokens from an OpenID Connect provider, beside the API keys (off while <see cref="JwtOptions.Authority"/> is unset).</summary>
    public JwtOptions Jwt { get; set; } = new();

    /// <summary>Longest lifetime a signed link may be issued for.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "365.00:00:00")]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = GeneratedCheck)]
    public TimeSpan MaxLinkLifetime { get; set; } = TimeSpan.FromDays(7);

    /// <summary>Startup check of the parts data annotations cannot reach (list items).</summary>
    internal IEnumerable<string> Problems()
    {
        for (var i = 0; i < ApiKeys.Count; i++)
        {
            var key = ApiKeys[i];
            if (string.IsNullOrWhiteSpace(key.Key) || key.Key.Length < ApiKeyOptions.MinKeyLength)
            {
                yield return $"Auth:ApiKeys:{i}:Key must be at least {ApiKeyOptions.MinKeyLength} characters.";
            }

            if (key.Scopes.Count == 0)
            {
                yield return $"Auth:ApiKeys:{i}:Scopes must list at least one of: {string.Join(", ", Scopes.All)}.";
            }

            foreach (var scope in key.Scopes.Where(s => !Scopes.All.Contains(s)))
            {
                yield return $"Auth:ApiKeys:{i}:Scopes contains '{scope}'; known scopes are {string.Join(", ", Scopes.All)}.";
            }

            for (var j = 0; j < key.Paths.Count; j++)
            {
                if (Grants.Normalize(key.Paths[j]) is null)
                {
                    yield return $"Auth:ApiKeys:{i}:Paths:{j} ('{key.Paths[j]}') is not a folder a client could name.";
                }
            }

            if (key.Name is { } name && !ApiKeyOptions.IsValidName(name))
            {
                yield return $"Auth:ApiKeys:{i}:Name ('{name}') must be 1 to 64 letters, digits, '.', '_' or '-'.";
            }

            if (BearerCredentials.IsJwtShaped(key.Key))
            {
                yield return $"Auth:ApiKeys:{i}:Key is shaped like a JSON Web Token (eyJ... with three dot-separated parts); choose another key, so that keys and tokens are told apart.";
            }
        }

        foreach (var problem in Jwt.Problems())
        {
            yield return problem;
        }

        if (ApiKeys.Select(k => k.Key).Distinct(StringComparer.Ordinal).Count() != ApiKeys.Count)
        {
            yield return "Auth:ApiKeys lists the same key twice.";
        }

        var named = ApiKeys.Where(k => k.Name is not null).Select(k => k.Name).ToList();
        if (named.Distinct(StringComparer.Ordinal).Count() != named.Count)
        {
            yield return "Auth:ApiKeys names two keys alike: each Name must be unique (it is the caller's identity).";
        }
    }
}

/// <summary>One API key and the scopes it grants.</summary>
public sealed class ApiKeyOptions
{
    /// <summary>Shortest key accepted: 16 characters keep guessing out of reach of any rate limit.</summary>
    public const int MinKeyLength = 16;

    /// <summary>The secret clients send as <c>Authorization: Bearer &lt;key&gt;</c> or <c>X-Api-Key</c>.</summary>
    public string Key { get; set; } = "";

    /// <summary>Any of <c>read</c>, <c>write</c>, <c>delete</c>.</summary>
    public List<string> Scopes { get; set; } = [];

    /// <summary>
    /// The key's name (letters, digits, <c>.</c>, <c>_</c>, <c>-</c>; up to 64), by which the server knows
    /// its caller: <c>key:NAME</c> in events, logs, upload-session ownership and <c>GET api/caller</c>.
    /// Absent: <c>key:</c> and the first 12 hex digits of the key's SHA-256, which name it without showing it.
    /// </summary>
    public string? Name { get; set; }

    /// <summary>
    /// Folders (<c>teams/a/</c>) the scopes apply to: the key reaches only names below one of them.
    /// Empty (the default): the whole tree.
    /// </summary>
    public List<string> Paths { get; set; } = [];

    /// <summary>Whether <paramref name="name"/> may name a key: short, and safe in a log line, a URL and a JSON string.</summary>
    internal static bool IsValidName(string name) =>
        name.Length is > 0 and <= 64 && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-');

    /// <summary>The folders as grants, or null for the whole tree.</summary>
    internal IReadOnlyList<string>? Folders => Paths.Count == 0 ? null : [.. Paths.Select(path => Grants.Normalize(path)!)];
}

/// <summary>
/// Checks the attributes of <see cref="AuthOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class AuthOptionsAttributes : IValidateOptions<AuthOptions>;
