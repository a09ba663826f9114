using System.Runtime.CompilerServices;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The body of an object as the store sends it, each read bounded by an idle timeout: a store that
/// stops sending in the middle of a body (a paused gateway, a partition) fails the read with a
/// <see cref="StorageReadException"/> after <c>idleTimeout</c> instead of holding it forever, and so
/// does a connection that breaks. The clock runs only while a read waits for the store, never while
/// the reader is busy elsewhere (a slow client of a download). A caller that gives up gets its
/// <see cref="OperationCanceledException"/>.
/// </summary>
internal sealed class StoreBodyStream(Stream inner, TimeSpan idleTimeout) : ReadOnlyStream
{
    private readonly CancellationTokenSource _idle = new();

    public override int Read(Span<byte> buffer)
    {
        var rented = System.Buffers.ArrayPool<byte>.Shared.Rent(buffer.Length);
        try
        {
            var read = ReadAsync(rented.AsMemory(0, buffer.Length)).AsTask().GetAwaiter().GetResult();
            rented.AsSpan(0, read).CopyTo(buffer);
            return read;
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(rented);
        }
    }

    // Pooled: a download calls this once per block.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        // One source for the stream's life: the timer is re-armed per read, disarmed after it, and
        // the caller's token reaches it through a registration (no linked source per read).
        _idle.CancelAfter(idleTimeout);
        using var registration = cancellationToken.UnsafeRegister(static state => ((CancellationTokenSource)state!).Cancel(), _idle);
        try
        {
            return await inner.ReadAsync(buffer, _idle.Token);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested && ex is not StorageReadException)
        {
            throw _idle.IsCancellationRequested
                ? new StorageReadException($"The object store stopped sending for {idleTimeout.TotalSeconds:0.#} s. Try again.", ex)
                : new StorageReadException("The object store failed while sending. Try again.", ex);
        }
        finally
        {
            if (!_idle.IsCancellationRequested)
            {
                _idle.CancelAfter(Timeout.InfiniteTimeSpan);
            }
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
            _idle.Dispose();
        }

        base.Dispose(disposing);
    }
}
