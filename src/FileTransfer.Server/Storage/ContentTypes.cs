using Microsoft.AspNetCore.StaticFiles;

namespace FileTransfer.Server.Storage;

/// <summary>Content type from the file extension, as static file servers do.</summary>
internal sealed class ContentTypes
{
    public const string Fallback = "application/octet-stream";

    private readonly FileExtensionContentTypeProvider _provider = new();

    public string For(string fileName) =>
        _provider.TryGetContentType(fileName, out var contentType) ? contentType : Fallback;
}
