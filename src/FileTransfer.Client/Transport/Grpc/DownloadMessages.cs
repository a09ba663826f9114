using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Client.Transport.Grpc;

/// <summary>One DownloadFile response: the metadata, or a chunk's bytes in an array rented from <see cref="ArrayPool{T}.Shared"/>.</summary>
internal sealed class DownloadMessage
{
    private PooledChunk? _chunk;

    private DownloadMessage(FileMetadata? metadata, PooledChunk? chunk)
    {
        Metadata = metadata;
        _chunk = chunk;
    }

    /// <summary>The metadata message's content; null for a chunk (or an empty message).</summary>
    public FileMetadata? Metadata { get; }

    public static DownloadMessage Copy(ReadOnlySequence<byte> chunk)
    {
        var rented = ArrayPool<byte>.Shared.Rent((int)chunk.Length);
        chunk.CopyTo(rented);
        return new DownloadMessage(null, new PooledChunk(rented, (int)chunk.Length));
    }

    public static DownloadMessage Describe(FileMetadata? metadata) => new(metadata, null);

    /// <summary>A chunk message's bytes, handed over to the caller, who returns them; null for the metadata (or when taken already).</summary>
    public PooledChunk? TakeChunk()
    {
        var chunk = _chunk;
        _chunk = null;
        return chunk;
    }
}

/// <summary>
/// Reads DownloadFile's response messages. The generated parser copies each chunk into a new
/// array (a <see cref="ByteString"/>), so a download allocated its whole size again as garbage
/// and the client spent its time in the GC and in zeroing fresh arrays; here a chunk message is
/// copied once into a pooled array, which the reader hands back before it reads the next message.
/// The metadata message, and any message that is not a plain chunk (an unknown field beside it),
/// goes through the generated parser, so the contract's checks stay where they were.
/// </summary>
internal static class DownloadMessages
{
    // Field 2 (chunk), wire type 2 (length-delimited): (2 << 3) | 2.
    private const byte ChunkTag = 0x12;

    public static Method<DownloadFileRequest, DownloadMessage> Method { get; } = new(
        MethodType.ServerStreaming,
        FileService.Descriptor.FullName,
        nameof(FileService.FileServiceClient.DownloadFile),
        Marshallers.Create(request => request.ToByteArray(), DownloadFileRequest.Parser.ParseFrom),
        Marshallers.Create<DownloadMessage>((_, _) => throw new NotSupportedException("The client never sends a DownloadFile response."), Deserialize));

    private static DownloadMessage Deserialize(DeserializationContext context)
    {
        var payload = context.PayloadAsReadOnlySequence();
        var reader = new SequenceReader<byte>(payload);
        if (reader.TryRead(out var tag) && tag == ChunkTag && TryReadLength(ref reader, out var length) && reader.Remaining == length)
        {
            return DownloadMessage.Copy(payload.Slice(reader.Position));
        }

        var message = DownloadFileResponse.Parser.ParseFrom(payload);
        return message.DataCase == DownloadFileResponse.DataOneofCase.Chunk
            ? DownloadMessage.Copy(new ReadOnlySequence<byte>(message.Chunk.Memory))
            : DownloadMessage.Describe(message.Metadata);
    }

    /// <summary>A length-delimited field's length (a varint of at most 5 bytes, as protobuf limits a message to 2 GiB).</summary>
    private static bool TryReadLength(ref SequenceReader<byte> reader, out long value)
    {
        value = 0;
        for (var shift = 0; shift < 35; shift += 7)
        {
            if (!reader.TryRead(out var b))
            {
                return false;
            }

            value |= (long)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return true;
            }
        }

        return false;
    }
}
