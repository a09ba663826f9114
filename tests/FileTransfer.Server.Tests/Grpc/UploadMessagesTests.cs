using System.Buffers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Grpc;
using Google.Protobuf;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// The pooled UploadFile reader must read every message exactly as the generated parser does:
/// chunk-only messages into a pooled array, everything else through the parser.
/// </summary>
public sealed class UploadMessagesTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(32 * 1024)]
    [InlineData(4 * 1024 * 1024)]
    public void A_Chunk_Message_Reads_Into_A_Pooled_Array_With_The_Same_Bytes(int size)
    {
        var bytes = TestData.RandomBytes(size);
        var payload = new UploadFileRequest { Chunk = ByteString.CopyFrom(bytes) }.ToByteArray();

        var message = Read(payload, segmentSize: 1000);

        Assert.True(UploadMessages.TryFindChunk(new ReadOnlySequence<byte>(payload), out _, out var length));
        Assert.Equal(size, length);
        Assert.Equal(UploadFileRequest.DataOneofCase.Chunk, message.DataCase);
        Assert.Equal(bytes, message.Chunk.ToByteArray());

        // Handed back, the message belongs to the pool (another upload may be reading into it now).
        message.ReturnChunk();
    }

    [Fact]
    public void The_Metadata_Message_Reads_As_The_Generated_Parser_Reads_It()
    {
        var metadata = new UploadFileRequest { Metadata = new FileMetadata { FileName = "a/b.bin", Size = 42, Overwrite = true, Sha256 = ByteString.CopyFrom(new byte[32]) } };

        var message = Read(metadata.ToByteArray(), segmentSize: 7);

        Assert.Equal(metadata, message);
    }

    [Fact]
    public void A_Chunk_With_Another_Field_After_It_Reads_As_The_Generated_Parser_Reads_It()
    {
        var chunk = new UploadFileRequest { Chunk = ByteString.CopyFrom(TestData.RandomBytes(300)) }.ToByteArray();
        // Field 15, varint 1: an unknown field a newer client might send.
        byte[] payload = [.. chunk, 15 << 3, 1];

        var message = Read(payload, segmentSize: 64);

        Assert.False(UploadMessages.TryFindChunk(new ReadOnlySequence<byte>(payload), out _, out _));
        Assert.Equal(UploadFileRequest.Parser.ParseFrom(payload), message);
    }

    [Fact]
    public void Empty_And_Truncated_Payloads_Are_Left_To_The_Generated_Parser()
    {
        Assert.False(UploadMessages.TryFindChunk(ReadOnlySequence<byte>.Empty, out _, out _));
        Assert.False(UploadMessages.TryFindChunk(new ReadOnlySequence<byte>([0x12, 0x05, 1, 2]), out _, out _));
        Assert.False(UploadMessages.TryFindChunk(new ReadOnlySequence<byte>([0x12, 0x80]), out _, out _));
        Assert.Equal(new UploadFileRequest(), Read([], segmentSize: 1));
    }

    private static UploadFileRequest Read(byte[] payload, int segmentSize) =>
        UploadMessages.Marshaller.ContextualDeserializer(new Payload(Segmented(payload, segmentSize)));

    /// <summary>The payload in several segments, as it arrives from a pipe.</summary>
    private static ReadOnlySequence<byte> Segmented(byte[] payload, int segmentSize)
    {
        if (payload.Length <= segmentSize)
        {
            return new ReadOnlySequence<byte>(payload);
        }

        var first = new Segment(payload.AsMemory(0, segmentSize), 0);
        var last = first;
        for (var offset = segmentSize; offset < payload.Length; offset += segmentSize)
        {
            last = last.Append(payload.AsMemory(offset, Math.Min(segmentSize, payload.Length - offset)));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }

    private sealed class Payload(ReadOnlySequence<byte> payload) : DeserializationContext
    {
        public override int PayloadLength => (int)payload.Length;

        public override byte[] PayloadAsNewBuffer() => payload.ToArray();

        public override ReadOnlySequence<byte> PayloadAsReadOnlySequence() => payload;
    }
}
