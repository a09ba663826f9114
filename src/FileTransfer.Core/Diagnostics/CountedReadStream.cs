using System.Runtime.CompilerServices;

namespace FileTransfer.Core;

/// <summary>
/// A download's bytes as the core reads them from the opened version, each read counted for the
/// transfer as it returns; disposing it disposes the version's stream. A read that completed at once
/// (a local file on Unix) is counted without an async state machine.
/// </summary>
internal sealed class CountedReadStream(Stream inner, TransferMetrics.Transfer transfer) : ReadOnlyStream
{
    public override int Read(Span<byte> buffer) => Counted(inner.Read(buffer));

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var read = inner.ReadAsync(buffer, cancellationToken);
        return read.IsCompletedSuccessfully ? ValueTask.FromResult(Counted(read.Result)) : AwaitedAsync(read);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override ValueTask DisposeAsync() => inner.DisposeAsync();

    // Pooled: a download from a store that reads asynchronously awaits thousands of reads.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> AwaitedAsync(ValueTask<int> read) => Counted(await read);

    private int Counted(int read)
    {
        transfer.Add(read);
        return read;
    }
}
