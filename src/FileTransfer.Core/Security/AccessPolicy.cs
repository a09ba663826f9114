namespace FileTransfer.Core;

/// <summary>
/// The one access policy, for every protocol (REST, gRPC, tus, the IETF draft, the web page): whether
/// a <see cref="Caller"/> may perform an operation on a name. A scope grants the operation
/// (<see cref="OperationScopes"/>), a folder grant the names it applies to, a signed link its one
/// file and nothing else. A refusal says the same whether the name exists or not: the policy is
/// decided before the backend is asked anything.
/// </summary>
public static class AccessPolicy
{
    /// <summary>
    /// Whether <paramref name="caller"/> holds a scope that grants <paramref name="operation"/>
    /// anywhere: what an endpoint can tell before it knows the name (the edge's early 401 / 403).
    /// </summary>
    public static bool MayAttempt(Caller caller, FileOperation operation) => HeldScope(caller, operation) is not null;

    /// <summary>Throws unless <paramref name="caller"/> may perform <paramref name="operation"/> on <paramref name="name"/>.</summary>
    public static void Demand(Caller caller, FileOperation operation, string name)
    {
        if (Refusal(caller, operation, name) is { } refused)
        {
            throw refused;
        }
    }

    /// <summary>Why <paramref name="caller"/> may not perform <paramref name="operation"/> on <paramref name="name"/>, or null when it may.</summary>
    public static FileTransferException? Refusal(Caller caller, FileOperation operation, string name)
    {
        if (HeldScope(caller, operation) is not { } scope)
        {
            scope = OperationScopes.AnyOf(operation)[0];
            return Denied(caller, caller.Kind switch
            {
                CallerKind.Link => $"The signed link does not grant '{scope}'.",
                CallerKind.Token => $"The token does not have the '{scope}' scope.",
                CallerKind.Anonymous => "Send an API key as 'Authorization: Bearer <key>' or 'X-Api-Key: <key>', or use a signed link (?sig=...).",
                _ => $"The API key does not have the '{scope}' scope.",
            });
        }

        if (caller.Link is { } link)
        {
            // A link names one file: its access on that file (and on the sessions it begins for it), nothing else.
            return operation != FileOperation.List && name == link.Name
                ? null
                : Denied(caller, operation == FileOperation.List ? "A signed link cannot list files." : "The signed link is for another file.");
        }

        return Grants.Cover(caller.Folders, name) ? null : Denied(caller, OutsideFolders(caller, scope, name));
    }

    /// <summary>
    /// Whether <paramref name="caller"/> may use upload session <paramref name="session"/> for
    /// <paramref name="use"/>. Its owner may do everything with it, as long as its grant still
    /// covers the name. A key with the <c>delete</c> scope over the name may query and cancel anyone's
    /// session, and no more: appending to and completing a session is its owner's alone.
    /// </summary>
    public static void DemandSession(Caller caller, UploadSession session, SessionUse use)
    {
        var isOwner = string.Equals(session.Owner, caller.Id, StringComparison.Ordinal);
        if (isOwner)
        {
            // The owner's credential may have changed meanwhile (a token with other paths).
            Demand(caller, use == SessionUse.Write ? FileOperation.Write : FileOperation.ManageUpload, session.Name);
            return;
        }

        if (use != SessionUse.Write && caller.Link is null && caller.Holds(Scopes.Delete) && Grants.Cover(caller.Folders, session.Name))
        {
            return;
        }

        throw caller.IsAnonymous
            ? Unauthenticated()
            : new FileTransferException(ErrorReason.PermissionDenied, use == SessionUse.Write
                ? "The upload belongs to another key or link: only its owner may append to it (a key with the 'delete' scope may query and cancel it)."
                : "The upload belongs to another key or link: only its owner, or a key with the 'delete' scope over its folder, may use it.");
    }

    /// <summary>
    /// Where a listing of <paramref name="prefix"/> may look, for <paramref name="caller"/>: the prefix
    /// itself when the caller reads everything below it, else the granted folders that lie below it
    /// (listed one after the other, in name order). Throws when the caller may not list, or no
    /// granted folder meets the prefix.
    /// </summary>
    public static IReadOnlyList<string> ListingScopes(Caller caller, string prefix)
    {
        if (Refusal(caller, FileOperation.List, prefix) is not { } refused)
        {
            return [prefix];
        }

        if (caller.Link is not null || !caller.Holds(Scopes.Read) || caller.Folders is not { } folders)
        {
            throw refused;
        }

        var below = folders.Where(folder => folder.StartsWith(prefix, StringComparison.Ordinal)).ToList();
        return below.Count > 0 ? below : throw refused;
    }

    /// <summary>
    /// <paramref name="request"/> narrowed by what the caller's grant fixes for an upload: a signed
    /// write link's size cap and SHA-256. Throws when the digest the client announced contradicts the link's.
    /// </summary>
    public static UploadRequest Narrow(Caller caller, UploadRequest request)
    {
        if (caller.Link is not { } link)
        {
            return request;
        }

        var expected = request.ExpectedSha256;
        if (link.Sha256 is { } granted)
        {
            if (expected is not null && !expected.AsSpan().SequenceEqual(granted))
            {
                throw new FileTransferException(ErrorReason.InvalidUploadStream, "The announced digest differs from the one the signed link allows.");
            }

            expected = granted;
        }

        return request with { ExpectedSha256 = expected, MaxBytes = link.MaxBytes ?? request.MaxBytes };
    }

    // The first of the operation's scopes the caller holds (no allocation: this runs for every request).
    private static string? HeldScope(Caller caller, FileOperation operation)
    {
        foreach (var scope in OperationScopes.AnyOf(operation))
        {
            if (caller.Holds(scope))
            {
                return scope;
            }
        }

        return null;
    }

    /// <summary>The refusal of a request that needs a credential and presented none.</summary>
    public static FileTransferException Unauthenticated() => new(
        ErrorReason.Unauthenticated,
        "Send an API key as 'Authorization: Bearer <key>' or 'X-Api-Key: <key>', or use a signed link (?sig=...).");

    private static FileTransferException Denied(Caller caller, string message) =>
        caller.IsAnonymous ? Unauthenticated() : new FileTransferException(ErrorReason.PermissionDenied, message);

    // Names the folder refused and the folders granted (the caller's own grant, no secret), never
    // whether the name exists.
    private static string OutsideFolders(Caller caller, string scope, string name)
    {
        var slash = name.LastIndexOf('/');
        var folder = slash < 0 ? "/" : name[..(slash + 1)];
        var granted = caller.Folders is { Count: > 0 } folders ? "only below " + string.Join(", ", folders.Select(f => $"'{f}'")) : "no folder";
        var who = caller.Kind == CallerKind.Token ? "token" : "API key";
        return $"The {who} may not {scope} in '{folder}': its '{scope}' scope applies {granted}.";
    }
}

/// <summary>What a request does with an upload session.</summary>
public enum SessionUse
{
    /// <summary>Ask for its state (tus and draft HEAD, gRPC GetUploadStatus).</summary>
    Query,

    /// <summary>Append to it or complete it (PATCH, WriteUpload).</summary>
    Write,

    /// <summary>Cancel it (DELETE, CancelUpload).</summary>
    Cancel,
}
