using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Grpc;
using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// DownloadFile's chunk writer: every byte in order at the edges of its 64 KiB reads and of its chunks,
/// the last message flushed, and never more unflushed than the shared <see cref="SendBudget"/> allows.
/// </summary>
public sealed class FileChunksTests
{
    private const int Chunk = 32 * 1024;

    public static TheoryData<int> Sizes() =>
    [
        1, Chunk - 1, Chunk, Chunk + 1, FileChunks.ReadBytes - 1, FileChunks.ReadBytes, FileChunks.ReadBytes + 1,
        FileChunks.FlushBytes, FileChunks.FlushBytes + 1, (3 * FileChunks.FlushBytes) + 12345,
    ];

    [Theory]
    [MemberData(nameof(Sizes))]
    public async Task Sends_Every_Byte_And_Flushes_The_Last_Message(int size)
    {
        var source = TestData.RandomBytes(size);
        var writer = new RecordingWriter();

        await FileChunks.SendAsync(new MemoryStream(source), size, Chunk, writer, SendBudgetTests.New(), TestTimeout.Token);

        Assert.Equal(SHA256.HashData(source), SHA256.HashData(writer.Bytes.ToArray()));
        Assert.All(writer.Sizes, length => Assert.InRange(length, 1, Chunk));
        Assert.True(writer.LastFlushed);
        Assert.InRange(writer.MostUnflushed, 1, FileChunks.FlushBytes);
    }

    [Fact]
    public async Task A_Download_Alone_Flushes_Every_256_KiB()
    {
        var size = (4 * FileChunks.FlushBytes) + 1;
        var writer = new RecordingWriter();

        await FileChunks.SendAsync(new MemoryStream(TestData.RandomBytes(size)), size, Chunk, writer, SendBudgetTests.New(), TestTimeout.Token);

        Assert.Equal(5, writer.Flushes);
        Assert.Equal(FileChunks.FlushBytes, writer.MostUnflushed);
    }

    [Fact]
    public async Task Among_Many_Downloads_Each_Flushes_After_Its_Share()
    {
        var budget = SendBudgetTests.New();
        var others = Enumerable.Range(0, 63).Select(_ => budget.Start(FileChunks.FlushBytes)).ToList();
        var size = 2 * FileChunks.FlushBytes;
        var source = TestData.RandomBytes(size);
        var writer = new RecordingWriter();

        await FileChunks.SendAsync(new MemoryStream(source), size, Chunk, writer, budget, TestTimeout.Token);

        // 4 MiB shared by 64 downloads: 64 KiB, two messages, per flush.
        Assert.Equal(SHA256.HashData(source), SHA256.HashData(writer.Bytes.ToArray()));
        Assert.Equal(2 * Chunk, writer.MostUnflushed);
        Assert.Equal(size / (2 * Chunk), writer.Flushes);
        Assert.Equal(63, budget.Sending);
        others.ForEach(lease => lease.Dispose());
    }

    /// <summary>Keeps a copy of each message's bytes (the sender reuses its buffer) and how it was written.</summary>
    private sealed class RecordingWriter : IServerStreamWriter<DownloadFileResponse>
    {
        private int _unflushed;

        public WriteOptions? WriteOptions { get; set; }

        public List<byte> Bytes { get; } = [];

        public List<int> Sizes { get; } = [];

        public int Flushes { get; private set; }

        public int MostUnflushed { get; private set; }

        public bool LastFlushed { get; private set; }

        public Task WriteAsync(DownloadFileResponse message, CancellationToken cancellationToken) => WriteAsync(message);

        public Task WriteAsync(DownloadFileResponse message)
        {
            Bytes.AddRange(message.Chunk.Span);
            Sizes.Add(message.Chunk.Length);
            _unflushed += message.Chunk.Length;
            MostUnflushed = Math.Max(MostUnflushed, _unflushed);
            LastFlushed = WriteOptions is null || (WriteOptions.Flags & WriteFlags.BufferHint) == 0;
            if (LastFlushed)
            {
                Flushes++;
                _unflushed = 0;
            }

            return Task.CompletedTask;
        }
    }
}
