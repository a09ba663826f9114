namespace FileTransfer.Server.Protocol;

/// <summary>Where the two protocols serve files: the REST prefix and the gRPC service's path.</summary>
internal static class Routes
{
    /// <summary>Every REST file endpoint lies under this (<c>api/files/{**path}</c>).</summary>
    public const string Files = "api/files";

    /// <summary>Resumable upload sessions (tus 1.0 creation, and every session as <c>api/uploads/{uploadId}</c>).</summary>
    public const string Uploads = "api/uploads";

    /// <summary>The route value that holds the file name in <c>api/files/{**path}</c>.</summary>
    public const string PathRouteValue = "path";

    /// <summary>The route value that holds a session's id in <c>api/uploads/{uploadId}</c>.</summary>
    public const string UploadIdRouteValue = "uploadId";

    /// <summary>Every FileService method's path starts with this (<c>/filetransfer.v1.FileService/Method</c>).</summary>
    public static readonly PathString FileService = "/" + FileTransfer.Protos.V1.FileService.Descriptor.FullName;

    /// <summary>True for a route under <see cref="Files"/> or <see cref="Uploads"/>, or a FileService method.</summary>
    public static bool ServesFiles(string? routePattern)
    {
        var text = (routePattern ?? "").TrimStart('/');
        return IsUnder(text, Files) || IsUnder(text, Uploads)
            || ("/" + text).StartsWith(FileService.Value + "/", StringComparison.Ordinal);
    }

    /// <summary>A session's address, <c>/api/uploads/{id}</c>: what tus and the draft answer in <c>Location</c>.</summary>
    public static string UploadLocation(string uploadId) => "/" + Uploads + "/" + uploadId;

    private static bool IsUnder(string text, string prefix) =>
        text.StartsWith(prefix, StringComparison.OrdinalIgnoreCase) && (text.Length == prefix.Length || text[prefix.Length] == '/');
}
