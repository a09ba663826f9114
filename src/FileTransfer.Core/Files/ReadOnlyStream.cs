namespace FileTransfer.Core;

/// <summary>
/// A forward-only stream that can only be read: every download stream of a backend, and readers
/// layered over a request body (the server's hashing reader of a multipart form). It
/// answers the rest of <see cref="Stream"/> (no seeking, no length, no writing) once, and routes the
/// array overloads to the span and memory ones, which a subclass implements.
/// </summary>
public abstract class ReadOnlyStream : Stream
{
    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    // Abstract: Stream's own version of each copies through a rented array and calls back the array overload above.
    public abstract override int Read(Span<byte> buffer);

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public abstract override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default);

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
