using System.Net.Sockets;
using System.Runtime.ExceptionServices;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Tells a <see cref="GuardedConnectionListener"/> that accept(2) failed inside the transport's
/// accept call. Kestrel's socket listener (.NET 10, SocketConnectionListener.AcceptAsync) catches
/// every <see cref="SocketException"/> from accept, EMFILE and ENFILE included, and calls accept again
/// at once: at the descriptor limit the pending connection stays queued, so the call spins on one core
/// and never returns. The failure itself is the runtime's <see cref="SocketException"/>, thrown inside
/// that call; no public API reports it otherwise. So the guard marks its accept call (an
/// <see cref="AsyncLocal{T}"/>, which flows into every await of the transport's call and nowhere else)
/// and this watches the exceptions thrown while the mark holds, where they are thrown, before the
/// transport catches them (<see cref="AppDomain.FirstChanceException"/>). No log event is read.
/// Work the transport starts during the call (an accepted connection's socket loops) inherits the
/// mark, but only for an accept that has ended: a failure there cancels nothing.
/// </summary>
internal static class AcceptFailureSignal
{
    private static readonly AsyncLocal<CancellationTokenSource?> Watched = new();

    static AcceptFailureSignal() => AppDomain.CurrentDomain.FirstChanceException += OnFirstChance;

    /// <summary>
    /// Until <see cref="Unwatch"/>, a failed accept(2) in the calls this async flow makes cancels
    /// <paramref name="attempt"/>: the transport's next accept then ends at once, and the guard backs off.
    /// </summary>
    public static void Watch(CancellationTokenSource attempt) => Watched.Value = attempt;

    public static void Unwatch() => Watched.Value = null;

    /// <summary>
    /// True for accept(2) failing for want of a resource or for any reason that will hold on the
    /// next call. A connection reset or aborted before it was accepted is gone from the queue: the
    /// next accept takes the next one, so retrying at once is right (and a client's resets must not
    /// slow everyone's accepts down).
    /// </summary>
    internal static bool IsAcceptFailure(Exception exception) =>
        exception is SocketException { SocketErrorCode: not (SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.OperationAborted or SocketError.Interrupted) };

    private static void OnFirstChance(object? sender, FirstChanceExceptionEventArgs e)
    {
        // Called for every exception the process throws: one read when nothing is watched.
        if (Watched.Value is not { } attempt || !IsAcceptFailure(e.Exception))
        {
            return;
        }

        try
        {
            attempt.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The accept already ended; nothing is left to stop.
        }
    }
}
