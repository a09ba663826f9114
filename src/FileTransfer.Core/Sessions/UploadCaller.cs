namespace FileTransfer.Core;

/// <summary>
/// Who asks for something about an upload session, in the core's terms: the owner it would create
/// sessions as, and whether it may use anybody's (a key with the <c>delete</c> scope). The host
/// builds it from the credential; the core compares it with <see cref="UploadSession.Owner"/>.
/// </summary>
/// <param name="Owner"><c>key:&lt;key id&gt;</c> for an API key, <c>link:&lt;link id&gt;</c> for a signed link.</param>
/// <param name="MayUseAnySession">True for a key with the <c>delete</c> scope: it may query, continue and cancel every session.</param>
public sealed record UploadCaller(string Owner, bool MayUseAnySession = false)
{
    /// <summary>True when this caller may query, continue or cancel <paramref name="session"/>.</summary>
    public bool MayUse(UploadSession session) =>
        MayUseAnySession || string.Equals(session.Owner, Owner, StringComparison.Ordinal);
}
