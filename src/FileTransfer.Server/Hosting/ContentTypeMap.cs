using System.Net.Mime;
using FileTransfer.Core;
using Microsoft.AspNetCore.StaticFiles;

namespace FileTransfer.Server.Hosting;

/// <summary>The core's content types from ASP.NET Core's extension table, as its static file server uses it.</summary>
internal sealed class ContentTypeMap : IContentTypeMap
{
    private readonly FileExtensionContentTypeProvider _provider = new();

    public string For(string fileName) =>
        _provider.TryGetContentType(fileName, out var contentType) ? contentType : MediaTypeNames.Application.Octet;
}
