namespace FileTransfer.Server.Rest;

/// <summary>
/// Endpoint metadata: the upload protocol an action speaks. Routing reads it to choose between the
/// endpoints of one route and method (<see cref="UploadProtocolPolicy"/>); the action itself then
/// reads only its own protocol's header fields.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, Inherited = false)]
internal sealed class UploadProtocolAttribute(UploadProtocol protocol) : Attribute
{
    public UploadProtocol Protocol { get; } = protocol;
}
