using Spectre.Console;

namespace FileTransfer.Cli.Progress;

/// <summary>Spectre.Console's live display on a terminal: bar, bytes, rate and ETA.</summary>
internal sealed class LiveProgress(IAnsiConsole console) : ITransferProgress
{
    private ProgressContext? _context;

    public Task<T> RunAsync<T>(Func<ITransferProgress, Task<T>> work) =>
        console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(
                new TaskDescriptionColumn(),
                new ProgressBarColumn(),
                new PercentageColumn(),
                new DownloadedColumn(),
                new TransferSpeedColumn(),
                new RemainingTimeColumn())
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

    public IProgressLine Start(string description, long? total, long done = 0)
    {
        if (_context is null)
        {
            throw new InvalidOperationException("Start a line inside RunAsync.");
        }

        var task = _context.AddTask(Markup.Escape(description), autoStart: true, maxValue: Math.Max(total ?? 1, 1));
        task.IsIndeterminate = total is null;
        task.Value = done;
        return new Line(task);
    }

    private sealed class Line(ProgressTask task) : IProgressLine
    {
        public void Add(long bytes) => task.Increment(bytes);

        public void Complete()
        {
            task.Value = task.MaxValue;
            task.StopTask();
        }
    }
}
