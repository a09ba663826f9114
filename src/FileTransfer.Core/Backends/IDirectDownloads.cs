namespace FileTransfer.Core;

/// <summary>
/// What a backend offers when its store can hand a version's bytes to clients itself: a URL that
/// grants one read of one object for a short time (an S3 presigned GET), so that a big download
/// bypasses the server. Optional: a backend that does not implement it (the local disk), or one whose
/// operator did not turn it on, has every download go through the server.
/// <see cref="FileOperations.RedirectsDownloads"/> and <see cref="FileOperations.GetDownloadUrl"/> are
/// the one place the protocols ask.
/// </summary>
public interface IDirectDownloads
{
    /// <summary>Whether downloads are to be sent to the store (the operator's choice, e.g. <c>Storage:S3:RedirectDownloads</c>).</summary>
    bool IsEnabled { get; }

    /// <summary>
    /// A URL from which a client fetches <paramref name="version"/>'s name as the store holds it, with
    /// <c>Range</c> honoured by the store, valid for the backend's configured lifetime and never past
    /// <see cref="DirectDownloadRequest.NotAfter"/>. The URL names the object, not the version: a
    /// replace between this call and the client's request serves the new version, under its own ETag.
    /// </summary>
    DirectDownload CreateUrl(StoredObject version, DirectDownloadRequest request);

    /// <summary>
    /// Whether the store answers a request carrying <paramref name="conditions"/> as RFC 9110 13 says
    /// (a redirected client sends them on to the URL). Where it does not, the server answers the
    /// request itself from the version it opened: a store that ignores <c>If-Range</c> would send one
    /// version's tail to a client holding another's head.
    /// </summary>
    bool Honours(ForwardedConditions conditions);
}

/// <summary>
/// The conditional header fields of a download request (RFC 9110 13.1) that a client sends on to the
/// store when it follows a redirect, as the protocol read them.
/// </summary>
/// <param name="IfMatch">The entity tags of <c>If-Match</c> as sent (<c>"x"</c>, <c>W/"x"</c>, <c>*</c>), or empty.</param>
/// <param name="IfNoneMatch">The entity tags of <c>If-None-Match</c> as sent, or empty.</param>
/// <param name="IfModifiedSince">An <c>If-Modified-Since</c> is present.</param>
/// <param name="IfUnmodifiedSince">An <c>If-Unmodified-Since</c> is present.</param>
/// <param name="IfRange">An <c>If-Range</c> is present with a <c>Range</c> it governs.</param>
public sealed record ForwardedConditions(
    IReadOnlyList<string> IfMatch,
    IReadOnlyList<string> IfNoneMatch,
    bool IfModifiedSince,
    bool IfUnmodifiedSince,
    bool IfRange)
{
    /// <summary>A request without conditions.</summary>
    public static readonly ForwardedConditions None = new([], [], false, false, false);
}

/// <summary>How the store should describe the bytes it sends, and how long the URL may live at most.</summary>
/// <param name="ContentType">The media type the server would have sent.</param>
/// <param name="ContentDisposition">The <c>Content-Disposition</c> the server would have sent.</param>
/// <param name="NotAfter">A moment the URL must not outlive (the signed link that authorised the request), or null.</param>
public sealed record DirectDownloadRequest(string ContentType, string ContentDisposition, DateTimeOffset? NotAfter);

/// <summary>A URL that serves a file's bytes from the store, and when it stops working.</summary>
public sealed record DirectDownload(Uri Url, DateTimeOffset ExpiresAt);
