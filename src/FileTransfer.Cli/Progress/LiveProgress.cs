using Spectre.Console;

namespace FileTransfer.Cli.Progress;

/// <summary>
/// Spectre.Console's live display on a terminal: description, bar, percentage, then the tool's
/// own columns for bytes (KiB/MiB/GiB), rate and time left, which stop changing once a line is
/// complete (Spectre's own transfer columns label binary sizes "MB" and keep recomputing the rate
/// of a finished task as time passes).
/// </summary>
internal sealed class LiveProgress(IAnsiConsole console, TimeProvider time) : ITransferProgress
{
    private ProgressContext? _context;

    public Task<T> RunAsync<T>(Func<ITransferProgress, Task<T>> work) =>
        console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(Columns)
            .StartAsync(async context =>
            {
                _context = context;
                try
                {
                    return await work(this);
                }
                finally
                {
                    _context = null;
                }
            });

    private static ProgressColumn[] Columns =>
    [
        new TaskDescriptionColumn(),
        new ProgressBarColumn(),
        new PercentageColumn(),
        new MeterColumns.Bytes(),
        new MeterColumns.Rate(),
        new MeterColumns.Remaining(),
    ];

    public IProgressLine Start(string description, long? total, long done = 0)
    {
        if (_context is null)
        {
            throw new InvalidOperationException("Start a line inside RunAsync.");
        }

        var task = _context.AddTask(Markup.Escape(description), autoStart: true, maxValue: Math.Max(total ?? 1, 1));
        return new Line(task, new TransferMeter(time, total, done));
    }

    /// <summary>Drives one Spectre task from a <see cref="TransferMeter"/> the columns read.</summary>
    internal sealed class Line : IProgressLine
    {
        private readonly ProgressTask _task;
        private readonly TransferMeter _meter;

        public Line(ProgressTask task, TransferMeter meter)
        {
            _task = task;
            _meter = meter;
            task.IsIndeterminate = meter.Total is null;
            MeterColumns.Attach(task, meter);
            task.Value = meter.Done;
        }

        public void Set(long done)
        {
            _meter.Set(done);
            _task.Value = done;
        }

        public void Complete(long done)
        {
            _meter.Complete(done);
            _task.Value = _task.MaxValue;
            _task.StopTask();
        }
    }
}
