namespace FileTransfer.Core;

/// <summary>
/// Which protocol carried a change, as events and hooks report it (<c>rest</c>, <c>grpc</c>, <c>tus</c>,
/// <c>draft</c>, <c>web</c>). Only reported, never decided on: the same rules hold for every protocol.
/// </summary>
public enum TransferProtocol
{
    /// <summary>REST on <c>api/files</c> (PUT, POST, multipart, DELETE).</summary>
    Rest,

    /// <summary>The gRPC FileService.</summary>
    Grpc,

    /// <summary>tus 1.0 at <c>api/uploads</c>.</summary>
    Tus,

    /// <summary>The IETF resumable-upload draft.</summary>
    Draft,

    /// <summary>The web page at <c>/</c> (whichever of the above its request used).</summary>
    Web,
}

/// <summary>The wire spelling of <see cref="TransferProtocol"/>.</summary>
public static class TransferProtocols
{
    /// <summary>"rest", "grpc", "tus", "draft" or "web".</summary>
    public static string Code(this TransferProtocol protocol) => protocol switch
    {
        TransferProtocol.Rest => "rest",
        TransferProtocol.Grpc => "grpc",
        TransferProtocol.Tus => "tus",
        TransferProtocol.Draft => "draft",
        TransferProtocol.Web => "web",
        _ => throw new ArgumentOutOfRangeException(nameof(protocol), protocol, null),
    };
}

/// <summary>Who made a change and over which protocol: what an event and a hook say about its origin.</summary>
/// <param name="Caller"><see cref="Caller.Id"/> (<c>key:ID</c>, <c>user:SUBJECT</c>, <c>link:ID</c>, <c>anonymous</c>), the one identity the core knows a caller by: never a secret.</param>
/// <param name="Protocol">The protocol, or null for a change the server made itself (an expired upload).</param>
public readonly record struct ChangeOrigin(string Caller, TransferProtocol? Protocol)
{
    public static ChangeOrigin Of(Caller caller, TransferProtocol protocol) => new(caller.Id, protocol);
}
