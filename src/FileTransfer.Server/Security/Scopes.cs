namespace FileTransfer.Server.Security;

/// <summary>
/// The three permissions, each also the name of the authorization policy that demands it.
/// Every action under <c>api/files</c> needs the scope of its HTTP method (<see cref="ForMethod"/>).
/// </summary>
internal static class Scopes
{
    public const string Read = "read";
    public const string Write = "write";
    public const string Delete = "delete";

    public static readonly IReadOnlyList<string> All = [Read, Write, Delete];

    /// <summary>
    /// The scope a request method needs: safe methods read (RFC 9110 9.2.1), PUT/POST/PATCH
    /// write, DELETE deletes. Anything else needs every scope, so that an unforeseen method
    /// is never cheaper than a known one.
    /// </summary>
    public static IReadOnlyList<string> ForMethod(string method) =>
        HttpMethods.IsGet(method) || HttpMethods.IsHead(method) ? [Read]
        : HttpMethods.IsPut(method) || HttpMethods.IsPost(method) || HttpMethods.IsPatch(method) ? [Write]
        : HttpMethods.IsDelete(method) ? [Delete]
        : All;
}
