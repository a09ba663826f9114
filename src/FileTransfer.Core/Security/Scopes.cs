namespace FileTransfer.Core;

/// <summary>The three permissions an API key (or a signed link) can grant.</summary>
public static class Scopes
{
    public const string Read = "read";
    public const string Write = "write";
    public const string Delete = "delete";

    public static readonly IReadOnlyList<string> All = [Read, Write, Delete];
}

/// <summary>
/// What a client asks the server to do, whichever protocol carries it. Every REST action and every
/// gRPC method declares one, and <see cref="OperationScopes"/> says once which scope each needs.
/// </summary>
public enum FileOperation
{
    /// <summary>List files (REST <c>GET api/files</c>, gRPC ListFiles).</summary>
    List,

    /// <summary>Read a file or its description (REST GET/HEAD, gRPC DownloadFile, GetFileInfo).</summary>
    Read,

    /// <summary>Store a file (REST PUT/POST, gRPC UploadFile).</summary>
    Write,

    /// <summary>Remove a file (REST DELETE, gRPC DeleteFile).</summary>
    Delete,
}

/// <summary>The one table of which scope each operation needs, for REST and gRPC alike.</summary>
public static class OperationScopes
{
    public static string For(FileOperation operation) => operation switch
    {
        FileOperation.List or FileOperation.Read => Scopes.Read,
        FileOperation.Write => Scopes.Write,
        FileOperation.Delete => Scopes.Delete,
        _ => throw new ArgumentOutOfRangeException(nameof(operation), operation, "Every operation needs a scope."),
    };
}
