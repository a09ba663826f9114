namespace FileTransfer.Core;

/// <summary>
/// Who asks, in the core's terms, whichever protocol and credential carried the request: an API
/// key, a token from an identity provider, a signed link, or nobody. It holds what the credential
/// grants (scopes, the folders they apply to, or a signed link's one file) and nothing about HTTP;
/// every operation of the core receives it and <see cref="AccessPolicy"/> decides. Built once per
/// API key and shared by every request with that key, so it never changes after construction.
/// </summary>
public sealed class Caller
{
    private readonly bool _read;
    private readonly bool _write;
    private readonly bool _delete;

    private Caller(string id, CallerKind kind, IEnumerable<string> scopes, IReadOnlyList<string>? folders, LinkGrant? link)
    {
        Id = id;
        Kind = kind;
        foreach (var scope in scopes)
        {
            _read |= scope == Scopes.Read;
            _write |= scope == Scopes.Write;
            _delete |= scope == Scopes.Delete;
        }

        Folders = folders is null ? null : Grants.Disjoint(folders);
        Link = link;
    }

    /// <summary>
    /// Who owns what this caller begins (its upload sessions): <c>key:&lt;key id&gt;</c>,
    /// <c>user:&lt;subject&gt;</c>, <c>link:&lt;link id&gt;</c>, or <c>anonymous</c>. Never a secret.
    /// </summary>
    public string Id { get; }

    public CallerKind Kind { get; }

    /// <summary>
    /// The folders (each ending in '/') the scopes apply to, none inside another, in
    /// <see cref="NameOrder"/>; null for the whole tree. Empty: the caller reaches nothing.
    /// </summary>
    public IReadOnlyList<string>? Folders { get; }

    /// <summary>A signed link's grant: one file, one access; null for every other caller.</summary>
    public LinkGrant? Link { get; }

    /// <summary>When the grant ends (a signed link's expiry), or null.</summary>
    public DateTimeOffset? ExpiresAt => Link?.ExpiresAt;

    /// <summary>Nobody: no credential was presented. <paramref name="mayRead"/>: <c>Auth:AllowAnonymousRead</c>.</summary>
    public static Caller Anonymous(bool mayRead) =>
        new("anonymous", CallerKind.Anonymous, mayRead ? [Scopes.Read] : [], folders: null, link: null);

    /// <summary>An API key with <paramref name="scopes"/> over <paramref name="folders"/> (null: the whole tree).</summary>
    public static Caller ForKey(string keyId, IEnumerable<string> scopes, IReadOnlyList<string>? folders = null) =>
        new("key:" + keyId, CallerKind.Key, scopes, folders, link: null);

    /// <summary>A token's subject with <paramref name="scopes"/> over <paramref name="folders"/> (empty: nothing).</summary>
    public static Caller ForToken(string subject, IEnumerable<string> scopes, IReadOnlyList<string> folders) =>
        new("user:" + subject, CallerKind.Token, scopes, folders, link: null);

    /// <summary>A signed link: its <see cref="LinkGrant.Access"/> on its one file.</summary>
    public static Caller ForLink(string linkId, LinkGrant link) =>
        new("link:" + linkId, CallerKind.Link, [link.Access], folders: null, link);

    public bool IsAnonymous => Kind == CallerKind.Anonymous;

    /// <summary>True when the credential holds <paramref name="scope"/> (somewhere: the folders are checked apart).</summary>
    public bool Holds(string scope) => scope switch
    {
        Scopes.Read => _read,
        Scopes.Write => _write,
        Scopes.Delete => _delete,
        _ => false,
    };

    public override string ToString() => Id;
}

/// <summary>What kind of credential a <see cref="Caller"/> presented.</summary>
public enum CallerKind
{
    Anonymous,
    Key,
    Token,
    Link,
}

/// <summary>
/// What a signed link grants: one access on one file until a moment, and for a write link a size
/// cap and optionally the exact SHA-256 of the bytes.
/// </summary>
/// <param name="Access"><see cref="Scopes.Read"/> or <see cref="Scopes.Write"/>.</param>
/// <param name="Name">The one file.</param>
/// <param name="ExpiresAt">When the link stops working; what it leads to (a presigned URL) must not outlive it.</param>
/// <param name="MaxBytes">Write links: the largest upload it allows.</param>
/// <param name="Sha256">Write links: the SHA-256 the bytes must have, when fixed.</param>
public sealed record LinkGrant(string Access, string Name, DateTimeOffset ExpiresAt, long? MaxBytes = null, byte[]? Sha256 = null);
