using System.Buffers;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>
/// The contract's client (Grpc.Net.Client over SocketsHttpHandler, h2c with prior knowledge), set up
/// like <see cref="DotnetClient"/>: one channel per server, no proxy, the HTTP/2 stream window left to
/// SocketsHttpHandler's dynamic sizing unless <c>--grpc-client-window</c> fixes it. The receive limit is
/// raised so that the sweep's 4 MiB chunks (4 MiB plus a few bytes of framing) arrive.
/// </summary>
internal sealed class GrpcClient : IDisposable
{
    public const string Label = ".NET Grpc.Net.Client";
    public const string PooledLabel = ".NET Grpc.Net.Client, pooled chunks";
    private const int ReadBufferSize = 128 * 1024;
    private readonly GrpcChannel _channel;
    private readonly FileService.FileServiceClient _client;
    private readonly Metadata _headers = [new("authorization", "Bearer " + Infrastructure.OurServer.ApiKey)];

    public GrpcClient(Uri h2c, int? initialStreamWindow = null)
    {
        var handler = new SocketsHttpHandler
        {
            UseProxy = false,
            UseCookies = false,
            EnableMultipleHttp2Connections = true,
        };
        if (initialStreamWindow is { } window)
        {
            handler.InitialHttp2StreamWindowSize = window;
        }

        _channel = GrpcChannel.ForAddress(h2c, new GrpcChannelOptions
        {
            HttpHandler = handler,
            MaxReceiveMessageSize = 8 * 1024 * 1024,
            MaxSendMessageSize = null,
        });
        _client = new FileService.FileServiceClient(_channel);
    }

    /// <summary>DownloadFile: checks the metadata message comes first; returns the chunk bytes and, when asked, their SHA-256.</summary>
    public async Task<(long Bytes, string? Sha256)> DownloadAsync(string name, bool hash, CancellationToken cancellationToken = default)
    {
        using var call = _client.DownloadFile(new DownloadFileRequest { FileName = name }, _headers, cancellationToken: cancellationToken);
        var stream = call.ResponseStream;
        if (!await stream.MoveNext(cancellationToken) || stream.Current.DataCase != DownloadFileResponse.DataOneofCase.Metadata)
        {
            throw new InvalidOperationException("DownloadFile: the first message is not the metadata");
        }

        var expected = stream.Current.Metadata.Size;
        using var sha = hash ? IncrementalHash.CreateHash(HashAlgorithmName.SHA256) : null;
        long total = 0;
        while (await stream.MoveNext(cancellationToken))
        {
            var chunk = stream.Current.Chunk.Span;
            sha?.AppendData(chunk);
            total += chunk.Length;
        }

        if (total != expected)
        {
            throw new InvalidOperationException($"DownloadFile: {total} bytes arrived, the metadata announced {expected}");
        }

        return (total, sha is null ? null : Convert.ToHexStringLower(sha.GetHashAndReset()));
    }

    /// <summary>DownloadFile read with <see cref="PooledChunks"/>: the same call, each chunk copied once into a pooled array.</summary>
    public async Task<(long Bytes, string? Sha256)> DownloadPooledAsync(string name, bool hash, CancellationToken cancellationToken = default)
    {
        using var call = _channel.CreateCallInvoker().AsyncServerStreamingCall(
            PooledChunks.DownloadFile, null, new CallOptions(_headers, cancellationToken: cancellationToken), new DownloadFileRequest { FileName = name });
        var stream = call.ResponseStream;
        if (!await stream.MoveNext(cancellationToken) || stream.Current.Metadata is not { } metadata)
        {
            throw new InvalidOperationException("DownloadFile: the first message is not the metadata");
        }

        using var sha = hash ? IncrementalHash.CreateHash(HashAlgorithmName.SHA256) : null;
        long total = 0;
        while (await stream.MoveNext(cancellationToken))
        {
            var chunk = stream.Current;
            sha?.AppendData(chunk.Span);
            total += chunk.Length;
            chunk.Return();
        }

        if (total != metadata.Size)
        {
            throw new InvalidOperationException($"DownloadFile: {total} bytes arrived, the metadata announced {metadata.Size}");
        }

        return (total, sha is null ? null : Convert.ToHexStringLower(sha.GetHashAndReset()));
    }

    /// <summary>
    /// UploadFile: the metadata message, then the file in <paramref name="chunkSize"/> chunks wrapped
    /// over one pooled buffer (the write has serialized a message once its task completes); returns the
    /// SHA-256 the server reports. Like the server's DownloadFile loop, the messages of one 128 KiB
    /// read are buffered (BufferHint) and the last of them flushes: Grpc.Net.Client otherwise flushes
    /// every message, which at tiny chunk sizes measures flushes rather than chunks.
    /// </summary>
    public async Task<string> UploadAsync(string name, string path, int chunkSize, CancellationToken cancellationToken = default)
    {
        await using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous | FileOptions.SequentialScan);
        using var call = _client.UploadFile(_headers, cancellationToken: cancellationToken);
        await call.RequestStream.WriteAsync(new UploadFileRequest
        {
            Metadata = new FileMetadata { FileName = name, Size = file.Length, Overwrite = true },
        }, cancellationToken);

        // Reads of at least 128 KiB from the file, cut into chunks: tiny chunk sizes must not mean tiny file reads.
        var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(chunkSize, ReadBufferSize));
        try
        {
            var message = new UploadFileRequest();
            var buffered = new WriteOptions(WriteFlags.BufferHint);
            int read;
            while ((read = await file.ReadAsync(buffer.AsMemory(0, buffer.Length - (buffer.Length % chunkSize)), cancellationToken)) > 0)
            {
                for (var start = 0; start < read; start += chunkSize)
                {
                    var length = Math.Min(chunkSize, read - start);
                    message.Chunk = UnsafeByteOperations.UnsafeWrap(buffer.AsMemory(start, length));
                    call.RequestStream.WriteOptions = start + length < read ? buffered : null;
                    await call.RequestStream.WriteAsync(message, cancellationToken);
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        await call.RequestStream.CompleteAsync();
        var response = await call.ResponseAsync;
        return Convert.ToHexStringLower(response.Metadata.Sha256.Span);
    }

    /// <summary>GetFileInfo once: the unary call of the unary-cost case.</summary>
    public async Task<long> GetFileInfoAsync(string name, CancellationToken cancellationToken = default) =>
        (await _client.GetFileInfoAsync(new GetFileInfoRequest { FileName = name }, _headers, cancellationToken: cancellationToken)).Size;

    /// <summary>GetDownloadUrl: the presigned URL of the store that a server on S3 with redirected downloads hands out.</summary>
    public async Task<Uri> GetDownloadUrlAsync(string name, CancellationToken cancellationToken = default) =>
        new((await _client.GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = name }, _headers, cancellationToken: cancellationToken)).Url);

    public void Dispose() => _channel.Dispose();
}
