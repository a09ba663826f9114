using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;

namespace FileTransfer.Server.Security;

/// <summary>
/// The one rule for what a log line may not show: signed-link tokens, API keys, the object store's
/// secret key and the signatures of its presigned URLs. Applied to every
/// log line's text, structured values, exception and scopes (<see cref="RedactingLoggerFactory"/>).
/// </summary>
internal static partial class CredentialRedaction
{
    public const string Mask = "[redacted]";

    /// <summary>
    /// <paramref name="text"/> with credentials masked, or the same instance when it holds none:
    /// <list type="bullet">
    /// <item>the <c>sig</c> query parameter, however its name is cased or percent-encoded (the query
    /// parser decodes and compares names case-insensitively, so <c>?%73IG=</c> is a link too);</item>
    /// <item>the value of an <c>Authorization</c> or <c>X-Api-Key</c> header (or gRPC metadata), or of an
    /// S3 secret key (<c>SecretKey</c>, <c>aws_secret_access_key</c>), written as <c>name: value</c>,
    /// <c>name=value</c> or a JSON member;</item>
    /// <item>the <c>X-Amz-Signature</c> of a presigned URL of the store (a REST redirect's <c>Location</c>),
    /// which lets anyone read that file until it expires;</item>
    /// <item>the credential after <c>Bearer</c> (RFC 6750 2.1), but not challenge parameters such as <c>realm=</c>;</item>
    /// <item>anything shaped like a signed-link token (<c>base64url({...}).base64url(HMAC-SHA256)</c>),
    /// wherever it appears, e.g. in a logged response body of <c>POST api/links</c>.</item>
    /// </list>
    /// </summary>
    public static string Redact(string text) => MayHoldCredential(text) ? Credentials().Replace(text, "${keep}" + Mask) : text;

    /// <summary>
    /// False when no pattern of <see cref="Credentials"/> can match: each needs a '=' or ':' after its
    /// name, the word <c>bearer</c>, or a token's <c>eyJ</c>. A vectorised search instead of the regex
    /// for most values of a log line (names, statuses, protocols).
    /// </summary>
    private static bool MayHoldCredential(string text) =>
        text.AsSpan().ContainsAny(Separators)
        || text.Contains("bearer", StringComparison.OrdinalIgnoreCase)
        || text.Contains("eyJ", StringComparison.Ordinal);

    private static readonly SearchValues<char> Separators = SearchValues.Create("=:");

    /// <summary>
    /// <see cref="Redact"/> for a message template (the <c>{OriginalFormat}</c> value of a log state),
    /// remembered per string instance: a source-generated logger passes the same constant on every
    /// call, and its '=' or ':' would otherwise run the regex once per line. Keyed by reference, so a
    /// template built at run time is redacted for what it holds; entries go with their strings.
    /// </summary>
    public static string RedactTemplate(string template) => Templates.GetValue(template, static t => Redact(t));

    private static readonly ConditionalWeakTable<string, string> Templates = [];

    /// <summary>
    /// True for a structured log value named after a credential carrier, whose whole value is
    /// then masked: HTTP logging names its values after the headers (<c>Authorization</c>,
    /// <c>X-Api-Key</c>), and a query parameter may be logged under its own name.
    /// </summary>
    public static bool IsCredentialName(string name) =>
        name.Equals("Authorization", StringComparison.OrdinalIgnoreCase)
        || name.Equals("Proxy-Authorization", StringComparison.OrdinalIgnoreCase)
        || name.Equals(FileTransferAuthenticationHandler.ApiKeyHeader, StringComparison.OrdinalIgnoreCase)
        || name.Equals(SignedLink.QueryParameter, StringComparison.OrdinalIgnoreCase)
        || name.EndsWith("SecretKey", StringComparison.OrdinalIgnoreCase)
        || name.Equals("X-Amz-Signature", StringComparison.OrdinalIgnoreCase);

    [GeneratedRegex(
        """
        (?<keep>(?<=^|[?&;\s'"(])(?:s|%[57]3)(?:i|%[46]9)(?:g|%[46]7)=)[^&\#\s'"<>]+
        |(?<keep>(?<=[?&;\s'"(])x-amz-signature=)[^&\#\s'"<>]+
        |(?<keep>\b(?:authorization|x-api-key)["']?\s*[:=]\s*["']?)[^\r\n"',;\]}]+
        |(?<keep>(?<![a-z0-9])(?:secret_?key|aws_secret_access_key)["']?\s*[:=]\s*["']?)[^\r\n"',;\]}]+
        |(?<keep>\bbearer\s+)(?!(?:realm|error|error_description|error_uri|scope)=)[^\s,;"'\]}]+
        |(?-i:eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])
        """,
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant | RegexOptions.ExplicitCapture | RegexOptions.IgnorePatternWhitespace)]
    private static partial Regex Credentials();
}
