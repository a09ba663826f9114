using FileTransfer.Client.Transport.Grpc;
using Grpc.Core;

namespace FileTransfer.Protos.V1;

internal static partial class FileService
{
    public partial class FileServiceClient
    {
        /// <summary>
        /// DownloadFile as <see cref="DownloadFile(DownloadFileRequest, Metadata, DateTime?, CancellationToken)"/>
        /// calls it (the same method on the wire, through this client's call invoker), but its responses
        /// read by <see cref="DownloadMessages"/>: a chunk in a pooled array instead of a new one.
        /// </summary>
        public AsyncServerStreamingCall<DownloadMessage> DownloadFilePooled(DownloadFileRequest request, Metadata? headers, CancellationToken cancellationToken) =>
            CallInvoker.AsyncServerStreamingCall(DownloadMessages.Method, null, new CallOptions(headers, cancellationToken: cancellationToken), request);
    }
}
