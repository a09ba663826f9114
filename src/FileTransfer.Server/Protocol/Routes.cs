namespace FileTransfer.Server.Protocol;

/// <summary>Where the two protocols serve files: the REST prefix and the gRPC service's path.</summary>
internal static class Routes
{
    /// <summary>Every REST file endpoint lies under this (<c>api/files/{**path}</c>).</summary>
    public const string Files = "api/files";

    /// <summary>Every FileService method's path starts with this (<c>/filetransfer.v1.FileService/Method</c>).</summary>
    public static readonly PathString FileService = "/" + FileTransfer.Protos.V1.FileService.Descriptor.FullName;

    /// <summary>True for a route under <see cref="Files"/> or a FileService method.</summary>
    public static bool ServesFiles(string? routePattern)
    {
        var text = (routePattern ?? "").TrimStart('/');
        return (text.StartsWith(Files, StringComparison.OrdinalIgnoreCase) && (text.Length == Files.Length || text[Files.Length] == '/'))
            || ("/" + text).StartsWith(FileService.Value + "/", StringComparison.Ordinal);
    }
}
