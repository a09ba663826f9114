using System.Buffers;
using System.Net;

namespace FileTransfer.Client.Transport.Rest;

/// <summary>
/// A REST upload's body: <paramref name="source"/> read <paramref name="chunkSize"/> bytes (at least
/// 4 KiB) at a time into a pooled buffer, each piece reported through <paramref name="sent"/> once written.
/// When the connection stops taking writes because the server answered and closed it
/// (<see cref="PeerLossStream"/>), the source is no longer read: the rest of a declared length goes
/// out as zeros that are dropped (SocketsHttpHandler fails a request whose body is shorter than
/// its <c>Content-Length</c>), and the handler then reads the server's answer.
/// </summary>
internal sealed class UploadContent(Stream source, long? declaredLength, int chunkSize, Action<int> sent) : HttpContent
{
    private const int FillSize = 128 * 1024;
    private readonly int _readSize = Math.Max(chunkSize, 4096);
    private volatile bool _dropped;

    // Unknown (a pipe): HTTP/1.1 sends the body chunked.
    protected override bool TryComputeLength(out long length)
    {
        length = declaredLength ?? 0;
        return declaredLength is not null;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        PeerLossStream.WritesDropped.Value = () => _dropped = true;
        long written = 0;
        var buffer = ArrayPool<byte>.Shared.Rent(_readSize);
        try
        {
            int read;
            while (!_dropped && (read = await source.ReadAsync(buffer.AsMemory(0, _readSize), cancellationToken)) > 0)
            {
                await stream.WriteAsync(buffer.AsMemory(0, read), cancellationToken);
                written += read;
                if (!_dropped)
                {
                    sent(read);
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        if (_dropped && declaredLength is { } total && written < total)
        {
            var zeros = ArrayPool<byte>.Shared.Rent(FillSize);
            try
            {
                Array.Clear(zeros);
                for (var left = total - written; left > 0;)
                {
                    var count = (int)Math.Min(left, zeros.Length);
                    await stream.WriteAsync(zeros.AsMemory(0, count), cancellationToken);
                    left -= count;
                }
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(zeros);
            }
        }
    }
}
