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

    /// <summary>
    /// Ask for or cancel an upload session (tus and draft HEAD and DELETE <c>api/uploads/{id}</c>,
    /// gRPC GetUploadStatus, CancelUpload). Creating one and appending to it are <see cref="Write"/>.
    /// </summary>
    ManageUpload,
}

/// <summary>The one table of which scope each operation needs, for REST and gRPC alike.</summary>
public static class OperationScopes
{
    /// <summary>
    /// The scopes that grant <paramref name="operation"/>: any one of them does. Only
    /// <see cref="FileOperation.ManageUpload"/> has two: its session's owner created it with
    /// <c>write</c>, and a key with <c>delete</c> may query and cancel anyone's; which session a
    /// caller may use is the core's to decide (<see cref="AccessPolicy.DemandSession"/>).
    /// </summary>
    public static IReadOnlyList<string> AnyOf(FileOperation operation) => operation switch
    {
        FileOperation.List or FileOperation.Read => ReadOnly,
        FileOperation.Write => WriteOnly,
        FileOperation.Delete => DeleteOnly,
        FileOperation.ManageUpload => WriteOrDelete,
        _ => throw new ArgumentOutOfRangeException(nameof(operation), operation, "Every operation needs a scope."),
    };

    // Built once: the policy asks for every request.
    private static readonly string[] ReadOnly = [Scopes.Read];
    private static readonly string[] WriteOnly = [Scopes.Write];
    private static readonly string[] DeleteOnly = [Scopes.Delete];
    private static readonly string[] WriteOrDelete = [Scopes.Write, Scopes.Delete];

    /// <summary>The name of the authorization policy that grants <paramref name="operation"/>: its scopes joined by '|' ("write|delete").</summary>
    public static string PolicyFor(FileOperation operation) => string.Join('|', AnyOf(operation));
}
