namespace FileTransfer.Core;

public sealed partial class FileOperations
{
    /// <summary>
    /// True when downloads are answered with a URL to the store (REST: <c>307</c> after the
    /// request's authorization and conditions) rather than with bytes sent by this server.
    /// </summary>
    public bool RedirectsDownloads => backend is IDirectDownloads { IsEnabled: true };

    /// <summary>
    /// True when a download with <paramref name="conditions"/> may be answered with a URL to the
    /// store: downloads are redirected and the store decides those conditions correctly
    /// (<see cref="IDirectDownloads.Honours"/>). Otherwise this server sends the bytes of the version it opened.
    /// </summary>
    public bool RedirectsDownload(ForwardedConditions conditions) =>
        backend is IDirectDownloads { IsEnabled: true } direct && direct.Honours(conditions);

    /// <summary>
    /// A URL that serves <paramref name="file"/>'s bytes straight from the store, described by
    /// <paramref name="contentDisposition"/> and the version's content type, living no longer than
    /// the backend allows nor past the end of <paramref name="caller"/>'s grant (a signed link's
    /// expiry). The file was opened by the same caller, so the policy has allowed the read. Refuses
    /// (<see cref="ErrorReason.DirectDownloadUnavailable"/>) when <see cref="RedirectsDownloads"/> is false.
    /// </summary>
    public DirectDownload GetDownloadUrl(Caller caller, OpenedFile file, string contentDisposition)
    {
        if (backend is not IDirectDownloads { IsEnabled: true } direct)
        {
            throw Failures.DirectDownloadUnavailable();
        }

        return direct.CreateUrl(file.Opened.Object, new DirectDownloadRequest(file.Version.ContentType, contentDisposition, caller.ExpiresAt));
    }
}
