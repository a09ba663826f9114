using System.Diagnostics;
using FileTransfer.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Grpc;

/// <summary>
/// Holds a gRPC upload to the minimum request body data rate that Kestrel applies to every REST body
/// (<c>Connections:MinDataRateBytesPerSecond</c>, after <c>Connections:MinDataRateGracePeriod</c>):
/// once the grace period has passed, the bytes received must keep up with the rate, or the reads are
/// cancelled and the upload ends as <see cref="ErrorReason.UploadIdle"/> (DEADLINE_EXCEEDED), leaving
/// nothing stored. Kestrel cannot enforce it here itself: Grpc.AspNetCore lifts the rate for
/// streaming calls, and HTTP/2 lets a request only lift it, never set it.
/// </summary>
internal sealed class UploadPace : IDisposable
{
    private static readonly TimeSpan CheckInterval = TimeSpan.FromSeconds(1);

    private readonly MinDataRate? _rate;
    private readonly long _startedAt = Stopwatch.GetTimestamp();
    private readonly CancellationTokenSource _cancellation;
    private readonly Timer? _timer;
    private long _bytes;

    public UploadPace(MinDataRate? rate, CancellationToken callCancelled)
    {
        _rate = rate;
        _cancellation = CancellationTokenSource.CreateLinkedTokenSource(callCancelled);
        _timer = rate is null ? null : new Timer(_ => Check(), null, CheckInterval, CheckInterval);
    }

    /// <summary>
    /// Runs <paramref name="receive"/> held to <paramref name="rate"/>, and answers <see cref="Refusal"/>
    /// when it was cut off for falling below it.
    /// </summary>
    public static async Task<T> RunAsync<T>(MinDataRate? rate, CancellationToken callCancelled, Func<UploadPace, Task<T>> receive)
    {
        using var pace = new UploadPace(rate, callCancelled);
        try
        {
            return await receive(pace);
        }
        catch (OperationCanceledException) when (pace.TooSlow)
        {
            throw pace.Refusal();
        }
    }

    /// <summary>Cancelled when the call is, or when the upload falls below the rate.</summary>
    public CancellationToken Token => _cancellation.Token;

    /// <summary>True once the upload was cut off for falling below the rate.</summary>
    public bool TooSlow { get; private set; }

    /// <summary>Counts bytes that arrived.</summary>
    public void Add(int bytes) => Interlocked.Add(ref _bytes, bytes);

    /// <summary>The refusal to answer with once <see cref="TooSlow"/>.</summary>
    public FileTransferException Refusal() => new(
        ErrorReason.UploadIdle,
        $"The upload sent fewer than {_rate!.BytesPerSecond:0} bytes per second after a grace period of {_rate.GracePeriod.TotalSeconds:0} s; nothing was stored.");

    public void Dispose()
    {
        _timer?.Dispose();
        _cancellation.Dispose();
    }

    private void Check()
    {
        var elapsed = Stopwatch.GetElapsedTime(_startedAt);
        if (TooSlow || elapsed <= _rate!.GracePeriod || Interlocked.Read(ref _bytes) >= _rate.BytesPerSecond * elapsed.TotalSeconds)
        {
            return;
        }

        TooSlow = true;
        try
        {
            _cancellation.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The upload ended meanwhile.
        }
    }
}
