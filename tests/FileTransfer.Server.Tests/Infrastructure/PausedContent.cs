using System.Net;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A request body sent in two goes: the bytes up to <c>pauseAt</c>, then, once <c>resume</c>
/// completes, the rest (or nothing, when it completes with false: the client stops there). A test
/// does something to the server's store in between (kills the gateway), while the upload runs.
/// </summary>
public sealed class PausedContent(byte[] bytes, int pauseAt, Task<bool> resume) : HttpContent
{
    private const int Piece = 64 * 1024;

    private readonly TaskCompletionSource _paused = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes once the bytes before the pause have been handed to the connection.</summary>
    public Task Paused => _paused.Task;

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        await SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        await WriteAsync(stream, 0, pauseAt, cancellationToken);
        await stream.FlushAsync(cancellationToken);
        _paused.TrySetResult();
        if (await resume.WaitAsync(cancellationToken))
        {
            await WriteAsync(stream, pauseAt, bytes.Length, cancellationToken);
        }
    }

    protected override bool TryComputeLength(out long length)
    {
        length = bytes.Length;
        return true;
    }

    private async Task WriteAsync(Stream stream, int from, int to, CancellationToken cancellationToken)
    {
        for (var offset = from; offset < to; offset += Piece)
        {
            await stream.WriteAsync(bytes.AsMemory(offset, Math.Min(Piece, to - offset)), cancellationToken);
        }
    }
}
