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
}

/// <summary>How the store should describe the bytes it sends, and how long the URL may live at most.</summary>
/// <param name="ContentType">The media type the server would have sent.</param>
/// <param name="ContentDisposition">The <c>Content-Disposition</c> the server would have sent.</param>
/// <param name="NotAfter">A moment the URL must not outlive (the signed link that authorised the request), or null.</param>
public sealed record DirectDownloadRequest(string ContentType, string ContentDisposition, DateTimeOffset? NotAfter);

/// <summary>A URL that serves a file's bytes from the store, and when it stops working.</summary>
public sealed record DirectDownload(Uri Url, DateTimeOffset ExpiresAt);
