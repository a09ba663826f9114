using System.Globalization;
using System.Net.Http.Headers;
using System.Text;

namespace FileTransfer.Client.Transport.Rest;

/// <summary>Resumable uploads over REST as a tus 1.0.0 client (api/uploads): creation, HEAD, PATCH.</summary>
internal sealed partial class RestTransport
{
    private const string TusVersion = "1.0.0";

    public async Task<UploadSessionState> StartUploadSessionAsync(UploadRequest upload, CancellationToken cancellationToken)
    {
        using var request = Request(HttpMethod.Post, Sessions(), apiKey);
        request.Headers.Add("Tus-Resumable", TusVersion);
        request.Headers.Add("Upload-Length", (upload.Length ?? 0).ToString(CultureInfo.InvariantCulture));
        var slash = upload.Name.LastIndexOf('/');
        List<(string Key, string Value)> metadata = slash < 0 ? [("filename", upload.Name)] : [("filename", upload.Name[(slash + 1)..]), ("folder", upload.Name[..slash])];
        if (upload.Sha256 is { } digest)
        {
            // Verified by the server over every byte, whatever protocol sends them, before it commits.
            metadata.Add(("sha256", Convert.ToHexStringLower(digest)));
        }

        request.Headers.Add("Upload-Metadata", string.Join(',', metadata.Select(m => $"{m.Key} {Convert.ToBase64String(Encoding.UTF8.GetBytes(m.Value))}")));
        if (!upload.Overwrite)
        {
            request.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any);
        }

        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, upload.Name, mustNotExist: !upload.Overwrite, cancellationToken);
        var id = response.Headers.Location?.OriginalString.Split('?')[0].Split('/')[^1]
            ?? throw new FileTransferException(FileTransferErrorKind.ServerError, "The server created the upload without a Location.");
        return new UploadSessionState(id, Offset(response) ?? 0, Complete: upload.Length == 0);
    }

    public async Task<UploadSessionState> GetUploadSessionAsync(string uploadId, CancellationToken cancellationToken)
    {
        using var request = Request(HttpMethod.Head, Session(uploadId), apiKey);
        request.Headers.Add("Tus-Resumable", TusVersion);
        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, uploadId, mustNotExist: false, cancellationToken);
        var offset = Offset(response) ?? throw new FileTransferException(FileTransferErrorKind.ServerError, "The server answered HEAD without Upload-Offset.");
        var length = LongHeader(response, "Upload-Length");
        return new UploadSessionState(uploadId, offset, Complete: offset == length && response.Headers.ETag is not null);
    }

    public async Task<UploadSessionState> FinishUploadSessionAsync(string uploadId, long offset, long length, Stream content, int chunkSize, Action<int> sent, CancellationToken cancellationToken)
    {
        using var request = Request(HttpMethod.Patch, Session(uploadId), apiKey);
        request.Headers.Add("Tus-Resumable", TusVersion);
        request.Headers.Add("Upload-Offset", offset.ToString(CultureInfo.InvariantCulture));
        request.Content = new UploadContent(content, length - offset, chunkSize, sent);
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/offset+octet-stream");
        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, uploadId, mustNotExist: false, cancellationToken);
        var reached = Offset(response) ?? length;
        return new UploadSessionState(uploadId, reached, Complete: reached == length);
    }

    private Uri Sessions() => new(server, "api/uploads");

    private Uri Session(string uploadId) => new(server, "api/uploads/" + Uri.EscapeDataString(uploadId));

    private static long? Offset(HttpResponseMessage response) => LongHeader(response, "Upload-Offset");

    private static long? LongHeader(HttpResponseMessage response, string name) =>
        response.Headers.TryGetValues(name, out var values) ? long.Parse(values.First(), CultureInfo.InvariantCulture) : null;
}
