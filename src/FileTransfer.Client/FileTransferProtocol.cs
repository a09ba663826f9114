namespace FileTransfer.Client;

/// <summary>How a <see cref="FileTransferClient"/> talks to the server.</summary>
public enum FileTransferProtocol
{
    /// <summary>The REST API (<c>api/files</c>) over HTTP/1.1 or HTTP/2.</summary>
    Rest,

    /// <summary>The gRPC <c>filetransfer.v1.FileService</c> over HTTP/2 (h2c on <c>http://</c>, TLS on <c>https://</c>).</summary>
    Grpc,
}
