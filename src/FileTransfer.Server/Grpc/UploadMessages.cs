using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Reads UploadFile and WriteUpload messages without allocating a new array for every chunk. Protobuf's parser
/// copies a <c>bytes</c> field into a fresh array, so an upload allocated as much garbage as it
/// stored (about 1 GB per GiB at 32 KiB chunks). A message that holds nothing but a chunk (field 2,
/// as every client sends them) is copied into an <see cref="ArrayPool{T}"/> array instead, which
/// the service hands back once the upload session has taken the bytes; anything else (the
/// metadata message, unknown fields) goes through the generated parser as before.
/// </summary>
internal static class UploadMessages
{
    // Field 2 (chunk), wire type 2 (length-delimited): the tag byte (2 << 3) | 2.
    private const byte ChunkTag = 0x12;

    // WriteUploadRequest's chunk is field 3: (3 << 3) | 2.
    private const byte WriteChunkTag = 0x1A;

    public static Marshaller<UploadFileRequest> Marshaller { get; } = Marshallers.Create<UploadFileRequest>(Serialize, context => Deserialize(context, ChunkTag, UploadFileRequest.Parser));

    /// <summary>The same for WriteUpload: a resumable upload's chunks come from the array pool too.</summary>
    public static Marshaller<WriteUploadRequest> WriteMarshaller { get; } = Marshallers.Create<WriteUploadRequest>(Serialize, context => Deserialize(context, WriteChunkTag, WriteUploadRequest.Parser));

    private static void Serialize<T>(T message, SerializationContext context)
        where T : IBufferMessage
    {
        context.SetPayloadLength(message.CalculateSize());
        message.WriteTo(context.GetBufferWriter());
        context.Complete();
    }

    private static T Deserialize<T>(DeserializationContext context, byte chunkTag, MessageParser<T> parser)
        where T : class, IMessage<T>, IPooledChunkMessage, new()
    {
        var payload = context.PayloadAsReadOnlySequence();
        if (!TryFindChunk(payload, chunkTag, out var start, out var length))
        {
            return parser.ParseFrom(payload);
        }

        var rented = ArrayPool<byte>.Shared.Rent(length);
        payload.Slice(start, length).CopyTo(rented);
        return PooledChunks.ForRentedChunk<T>(rented, length);
    }

    /// <summary>True when the payload is exactly one UploadFile chunk field: its tag, its length (a varint) and the bytes.</summary>
    internal static bool TryFindChunk(ReadOnlySequence<byte> payload, out long start, out int length) =>
        TryFindChunk(payload, ChunkTag, out start, out length);

    /// <summary>True when the payload is exactly one field with <paramref name="chunkTag"/>: its tag, its length (a varint) and the bytes.</summary>
    internal static bool TryFindChunk(ReadOnlySequence<byte> payload, byte chunkTag, out long start, out int length)
    {
        start = 0;
        length = 0;
        var reader = new SequenceReader<byte>(payload);
        if (!reader.TryRead(out var tag) || tag != chunkTag)
        {
            return false;
        }

        // A varint of at most 5 bytes (the receive limit keeps lengths far below 2^31).
        ulong value = 0;
        for (var shift = 0; shift < 35; shift += 7)
        {
            if (!reader.TryRead(out var b))
            {
                return false;
            }

            value |= (ulong)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                start = reader.Consumed;
                if (value == 0 || value > int.MaxValue || start + (long)value != payload.Length)
                {
                    return false;
                }

                length = (int)value;
                return true;
            }
        }

        return false;
    }
}
