namespace FileTransfer.Cli.Progress;

/// <summary>Shows how a transfer advances: a live bar, plain lines, or nothing (<c>--quiet</c>).</summary>
internal interface ITransferProgress
{
    /// <summary>Runs <paramref name="work"/> while the display is active.</summary>
    Task<T> RunAsync<T>(Func<ITransferProgress, Task<T>> work);

    /// <summary>Starts a line for one phase (hashing, download, upload) of <paramref name="total"/> bytes, of which <paramref name="done"/> are already done.</summary>
    IProgressLine Start(string description, long? total, long done = 0);

    /// <summary>Creates the display that fits the console.</summary>
    public static ITransferProgress For(CliConsole console, bool quiet) =>
        quiet ? QuietProgress.Instance
        : console.Interactive ? new LiveProgress(console.CreateAnsiConsole(), TimeProvider.System)
        : new PlainProgress(console.Error, TimeProvider.System);
}

/// <summary>One phase of a transfer.</summary>
internal interface IProgressLine
{
    /// <summary>Bytes done so far, in total; a smaller value than before means the phase started over.</summary>
    void Set(long done);

    /// <summary>The phase finished with <paramref name="done"/> bytes: the line stops changing.</summary>
    void Complete(long done);
}

internal sealed class QuietProgress : ITransferProgress, IProgressLine
{
    public static readonly QuietProgress Instance = new();

    public Task<T> RunAsync<T>(Func<ITransferProgress, Task<T>> work) => work(this);

    public IProgressLine Start(string description, long? total, long done = 0) => this;

    public void Set(long done)
    {
    }

    public void Complete(long done)
    {
    }
}
