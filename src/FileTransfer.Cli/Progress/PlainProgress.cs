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
        new Line(output, time, description, total, done);

    private sealed class Line(TextWriter output, TimeProvider time, string description, long? total, long done) : IProgressLine
    {
        private readonly long _resumedAt = done;
        private long _done = done;
        private readonly long? _total = total;
        private readonly long _startedAt = time.GetTimestamp();
        private long _lastPrintedAt = time.GetTimestamp();

        public void Add(long bytes)
        {
            _done += bytes;
            if (time.GetElapsedTime(_lastPrintedAt) >= Interval)
            {
                _lastPrintedAt = time.GetTimestamp();
                output.WriteLine(Describe(final: false));
            }
        }

        public void Complete() => output.WriteLine(Describe(final: true));

        private string Describe(bool final)
        {
            var elapsed = time.GetElapsedTime(_startedAt);
            var rate = elapsed.TotalSeconds > 0 ? (_done - _resumedAt) / elapsed.TotalSeconds : 0;
            if (final)
            {
                return string.Create(CultureInfo.InvariantCulture,
                    $"{description}: {Sizes.Format(_done)} done in {elapsed.TotalSeconds:0.0} s ({Sizes.Format((long)rate)}/s)");
            }

            var of = _total is { } t ? $" / {Sizes.Format(t)} ({100.0 * _done / Math.Max(t, 1):0}%)" : string.Empty;
            var eta = _total is { } all && rate > 0 ? $", ETA {TimeSpan.FromSeconds(Math.Ceiling((all - _done) / rate)):c}" : string.Empty;
            return string.Create(CultureInfo.InvariantCulture, $"{description}: {Sizes.Format(_done)}{of}, {Sizes.Format((long)rate)}/s{eta}");
        }
    }
}
