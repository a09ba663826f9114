using System.Buffers;
using FileTransfer.Protos.V1;
using Google.Protobuf;
using Grpc.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Reads UploadFile messages without allocating a new array for every chunk. Protobuf's parser
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

    public static Marshaller<UploadFileRequest> Marshaller { get; } = Marshallers.Create(Serialize, Deserialize);

    private static void Serialize(UploadFileRequest message, SerializationContext context)
    {
        context.SetPayloadLength(message.CalculateSize());
        message.WriteTo(context.GetBufferWriter());
        context.Complete();
    }

    private static UploadFileRequest Deserialize(DeserializationContext context)
    {
        var payload = context.PayloadAsReadOnlySequence();
        if (!TryFindChunk(payload, out var start, out var length))
        {
            return UploadFileRequest.Parser.ParseFrom(payload);
        }

        var rented = ArrayPool<byte>.Shared.Rent(length);
        payload.Slice(start, length).CopyTo(rented);
        return UploadFileRequest.ForRentedChunk(rented, length);
    }

    /// <summary>True when the payload is exactly one chunk field: its tag, its length (a varint) and the bytes.</summary>
    internal static bool TryFindChunk(ReadOnlySequence<byte> payload, out long start, out int length)
    {
        start = 0;
        length = 0;
        var reader = new SequenceReader<byte>(payload);
        if (!reader.TryRead(out var tag) || tag != ChunkTag)
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
