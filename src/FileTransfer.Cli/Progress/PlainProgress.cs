using System.Globalization;

namespace FileTransfer.Cli.Progress;

/// <summary>
/// Progress for logs and pipes: a line at most once a second, and one when a phase ends,
/// never carriage returns or escape codes.
/// </summary>
internal sealed class PlainProgress(TextWriter output, TimeProvider time) : ITransferProgress
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    public Task<T> RunAsync<T>(Func<ITransferProgress, Task<T>> work) => work(this);

    public IProgressLine Start(string description, long? total, long done = 0) =>
        new Line(output, time, description, new TransferMeter(time, total, done));

    private sealed class Line(TextWriter output, TimeProvider time, string description, TransferMeter meter) : IProgressLine
    {
        private long _lastPrintedAt = time.GetTimestamp();

        public void Set(long done)
        {
            meter.Set(done);
            if (time.GetElapsedTime(_lastPrintedAt) >= Interval)
            {
                _lastPrintedAt = time.GetTimestamp();
                output.WriteLine(Describe());
            }
        }

        public void Complete(long done)
        {
            if (!meter.IsComplete)
            {
                meter.Complete(done);
                output.WriteLine(Describe());
            }
        }

        private string Describe()
        {
            if (meter.IsComplete)
            {
                return string.Create(CultureInfo.InvariantCulture,
                    $"{description}: {Sizes.Format(meter.Done)} done in {meter.Elapsed.TotalSeconds:0.0} s ({Sizes.Format((long)meter.Rate)}/s)");
            }

            var of = meter.Total is { } t ? $" / {Sizes.Format(t)} ({100.0 * meter.Done / Math.Max(t, 1):0}%)" : string.Empty;
            var eta = meter.Remaining is { } left ? $", ETA {left:c}" : string.Empty;
            return string.Create(CultureInfo.InvariantCulture, $"{description}: {Sizes.Format(meter.Done)}{of}, {Sizes.Format((long)meter.Rate)}/s{eta}");
        }
    }
}
