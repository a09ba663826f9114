using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>What a test does with a FileService client: a whole download kept message by message, an upload in chunks of a chosen size.</summary>
public static class GrpcTransfers
{
    public static async Task<Download> DownloadAsync(FileService.FileServiceClient client, DownloadFileRequest request, CancellationToken cancellationToken)
    {
        using var call = client.DownloadFile(request, cancellationToken: cancellationToken);
        var messages = new List<DownloadFileResponse>();
        await foreach (var message in call.ResponseStream.ReadAllAsync(cancellationToken))
        {
            messages.Add(message);
        }

        return new Download(messages);
    }

    public static Task<Download> DownloadAsync(FileService.FileServiceClient client, string name, CancellationToken cancellationToken) =>
        DownloadAsync(client, new DownloadFileRequest { FileName = name }, cancellationToken);

    /// <summary>Sends <paramref name="metadata"/>, then <paramref name="bytes"/> in chunks of <paramref name="chunkSize"/>.</summary>
    public static async Task<UploadFileResponse> UploadAsync(FileService.FileServiceClient client, FileMetadata metadata, byte[] bytes, int chunkSize, CancellationToken cancellationToken)
    {
        using var call = client.UploadFile(cancellationToken: cancellationToken);
        try
        {
            await call.RequestStream.WriteAsync(new UploadFileRequest { Metadata = metadata }, cancellationToken);
            if (chunkSize < 1024)
            {
                // Tiny messages: let the client batch them into larger HTTP/2 writes (the server still gets one message per chunk).
                call.RequestStream.WriteOptions = new WriteOptions(WriteFlags.BufferHint);
            }

            for (var offset = 0; offset < bytes.Length; offset += chunkSize)
            {
                var chunk = ByteString.CopyFrom(bytes, offset, Math.Min(chunkSize, bytes.Length - offset));
                await call.RequestStream.WriteAsync(new UploadFileRequest { Chunk = chunk }, cancellationToken);
            }

            await call.RequestStream.CompleteAsync();
        }
        catch (RpcException) when (!cancellationToken.IsCancellationRequested)
        {
            // The server ended the call while we were still sending (a refusal): its status is the answer.
        }

        return await call.ResponseAsync;
    }

    public static Task<UploadFileResponse> UploadAsync(FileService.FileServiceClient client, string name, byte[] bytes, int chunkSize, CancellationToken cancellationToken) =>
        UploadAsync(client, new FileMetadata { FileName = name, Overwrite = true }, bytes, chunkSize, cancellationToken);

    public static string Sha256Hex(byte[] bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    /// <summary>Every message of a DownloadFile call, in order.</summary>
    public sealed record Download(IReadOnlyList<DownloadFileResponse> Messages)
    {
        /// <summary>The first message, which must be the metadata.</summary>
        public FileMetadata Metadata =>
            Messages.Count > 0 && Messages[0].DataCase == DownloadFileResponse.DataOneofCase.Metadata
                ? Messages[0].Metadata
                : throw new Xunit.Sdk.XunitException("The first message is not metadata.");

        public IReadOnlyList<ByteString> Chunks =>
            [.. Messages.Skip(1).Select(m => m.DataCase == DownloadFileResponse.DataOneofCase.Chunk ? m.Chunk : throw new Xunit.Sdk.XunitException("A second metadata message."))];

        public byte[] Bytes => [.. Chunks.SelectMany(c => c.ToByteArray())];
    }
}
