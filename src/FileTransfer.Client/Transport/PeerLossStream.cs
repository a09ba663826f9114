using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace FileTransfer.Client.Transport;

/// <summary>
/// The socket under every connection <see cref="HttpHandlers"/> opens. A peer that goes away
/// (reset, broken pipe) is reported by reads only, after every byte it sent before it went: a
/// write that runs into the loss completes without sending, and the read that then finds the end
/// of the stream throws the loss instead.
/// </summary>
/// <remarks>
/// The kernel reports a reset to exactly one call on the socket, and SocketsHttpHandler reads and
/// writes a connection concurrently; without this, whichever made that call decided what the
/// caller was told. An HTTP/1.1 upload that the server refused (401, 412, 413, 409) and stopped
/// reading failed with the "Broken pipe" of the next body write, and the handler dropped the answer
/// the server had sent before it closed (RFC 9112 9.5: a client sending a body should watch for the
/// server's response). A reset met by a write also showed the reader a plain end of stream, as if
/// the server had closed the connection on purpose.
/// </remarks>
internal sealed class PeerLossStream(Stream inner) : Stream
{
    private IOException? _lost;

    /// <summary>
    /// Set by a request body while it writes (<see cref="Rest.UploadContent"/>): called when its
    /// writes stop reaching the peer, so that it stops reading its source instead of streaming all
    /// of it nowhere.
    /// </summary>
    public static AsyncLocal<Action?> WritesDropped { get; } = new();

    public override bool CanRead => inner.CanRead;

    public override bool CanSeek => false;

    public override bool CanWrite => inner.CanWrite;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        int read;
        try
        {
            read = inner.Read(buffer);
        }
        catch (IOException e) when (IsPeerLoss(e))
        {
            _lost ??= e;
            throw;
        }

        return Checked(read, buffer.Length);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        int read;
        try
        {
            read = await inner.ReadAsync(buffer, cancellationToken);
        }
        catch (IOException e) when (IsPeerLoss(e))
        {
            _lost ??= e;
            throw;
        }

        return Checked(read, buffer.Length);
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (_lost is null)
        {
            try
            {
                inner.Write(buffer);
                return;
            }
            catch (IOException e) when (IsPeerLoss(e))
            {
                _lost = e;
            }
        }

        WritesDropped.Value?.Invoke();
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_lost is null)
        {
            try
            {
                await inner.WriteAsync(buffer, cancellationToken);
                return;
            }
            catch (IOException e) when (IsPeerLoss(e))
            {
                _lost = e;
            }
        }

        WritesDropped.Value?.Invoke();
    }

    public override void Flush() => inner.Flush();

    public override Task FlushAsync(CancellationToken cancellationToken) => inner.FlushAsync(cancellationToken);

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    // The peer reset the connection, or it is closed for writing: nothing this side did (a cancelled
    // or disposed connection fails with other errors, which pass through).
    private static bool IsPeerLoss(IOException e) =>
        e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown };

    // The end of the stream after a loss a write met is that loss (a zero-byte read waits for data and is no end).
    private int Checked(int read, int requested) =>
        read == 0 && requested > 0 && _lost is { } lost ? throw new IOException(lost.Message, lost.InnerException) : read;
}
