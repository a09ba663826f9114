using FileTransfer.Core;

namespace FileTransfer.Server.Diagnostics;

/// <summary>Makes the <see cref="TransferOrigin"/> of a request: what a REST action, a resumable-upload translator or the gRPC service hands the core.</summary>
internal sealed class TransferOrigins(ILogger<RequestTransfers> logger)
{
    /// <summary>The origin of the transfers <paramref name="context"/> asks for over <paramref name="protocol"/>.</summary>
    public TransferOrigin For(HttpContext context, TransferProtocol protocol) => new RequestTransfers(context, protocol, logger);
}
