namespace FileTransfer.Core;

/// <summary>
/// The media type of a file from its name, as static file servers derive it. The host supplies it
/// (ASP.NET Core's extension table), so that every backend and protocol reports the same type and
/// no backend has to store one.
/// </summary>
public interface IContentTypeMap
{
    string For(string fileName);
}
