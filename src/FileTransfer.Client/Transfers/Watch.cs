using System.Runtime.CompilerServices;
using FileTransfer.Client.Transport;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// A watch that survives cuts: when the stream breaks or the server ends it (a restart, a drain), it
/// is opened again after the last event received, so nothing still retained is missed. Failures in a
/// row without an event are bounded by <see cref="FileTransferClientOptions.MaxRetries"/>.
/// </summary>
internal static class Watch
{
    public static async IAsyncEnumerable<FileTransferEvent> RunAsync(IFileTransport transport, string? prefix, string? after, FileTransferClientOptions options, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var backoff = new Backoff(options.MaxRetries, options.RetryDelay);
        var last = after;
        while (true)
        {
            await using var events = transport.WatchAsync(prefix, last, cancellationToken).GetAsyncEnumerator(cancellationToken);
            while (true)
            {
                var (moved, failure) = await MoveAsync(events);
                if (!moved)
                {
                    if (!await backoff.WaitAsync(cancellationToken))
                    {
                        throw failure ?? new FileTransferException(FileTransferErrorKind.ConnectionLost, "The server kept ending the event stream.");
                    }

                    break;
                }

                backoff.Progressed();
                last = events.Current.Id;
                yield return events.Current;
            }
        }
    }

    // False with the failure when the stream broke in a way worth reopening; false alone when the server ended it.
    private static async Task<(bool Moved, FileTransferException? Failure)> MoveAsync(IAsyncEnumerator<FileTransferEvent> events)
    {
        try
        {
            return (await events.MoveNextAsync(), null);
        }
        catch (FileTransferException e) when (e.Kind is FileTransferErrorKind.ConnectionLost or FileTransferErrorKind.ServerError)
        {
            return (false, e);
        }
    }
}
