using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>One DownloadFile message as the pooled client reads it: the metadata, or a chunk in a rented array.</summary>
internal sealed class PooledChunk
{
    public FileMetadata? Metadata { get; init; }

    public byte[]? Rented { get; private set; }

    public int Length { get; init; }

    public ReadOnlySpan<byte> Span => Rented.AsSpan(0, Length);

    public static PooledChunk Rent(ReadOnlySequence<byte> bytes)
    {
        var rented = ArrayPool<byte>.Shared.Rent((int)bytes.Length);
        bytes.CopyTo(rented);
        return new PooledChunk { Rented = rented, Length = (int)bytes.Length };
    }

    public void Return()
    {
        if (Rented is { } rented)
        {
            Rented = null;
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}

/// <summary>
/// DownloadFile as a careful .NET client can read it: the same call on the wire, but each chunk
/// message is copied once into an <see cref="ArrayPool{T}"/> array (handed back after use) instead
/// of being parsed into a new array per chunk by the generated client. Shows how much of the gRPC
/// download's cost is the client's own allocation, as opposed to the server or HTTP/2.
/// </summary>
internal static class PooledChunks
{
    // Field 2 (chunk), wire type 2: (2 << 3) | 2.
    private const byte ChunkTag = 0x12;

    public static Method<DownloadFileRequest, PooledChunk> DownloadFile { get; } = new(
        MethodType.ServerStreaming,
        FileService.Descriptor.FullName,
        "DownloadFile",
        Marshallers.Create(request => request.ToByteArray(), DownloadFileRequest.Parser.ParseFrom),
        Marshallers.Create<PooledChunk>((_, _) => throw new NotSupportedException("The client never sends a response."), Deserialize));

    private static PooledChunk Deserialize(DeserializationContext context)
    {
        var payload = context.PayloadAsReadOnlySequence();
        var reader = new SequenceReader<byte>(payload);
        if (reader.TryRead(out var tag) && tag == ChunkTag && TryReadVarint(ref reader, out var length) && reader.Remaining == length)
        {
            return PooledChunk.Rent(payload.Slice(reader.Position));
        }

        // The metadata message, or a chunk with other fields beside it: the generated parser.
        var message = DownloadFileResponse.Parser.ParseFrom(payload);
        return message.DataCase == DownloadFileResponse.DataOneofCase.Metadata
            ? new PooledChunk { Metadata = message.Metadata }
            : PooledChunk.Rent(new ReadOnlySequence<byte>(message.Chunk.Memory));
    }

    private static bool TryReadVarint(ref SequenceReader<byte> reader, out long value)
    {
        value = 0;
        for (var shift = 0; shift < 35; shift += 7)
        {
            if (!reader.TryRead(out var b))
            {
                return false;
            }

            value |= (long)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return true;
            }
        }

        return false;
    }
}
