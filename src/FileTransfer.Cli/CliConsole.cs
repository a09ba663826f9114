using Spectre.Console;

namespace FileTransfer.Cli;

/// <summary>
/// Where the tool writes. Results go to <see cref="Out"/> (so that <c>ls</c> pipes cleanly);
/// progress, notes and errors go to <see cref="Error"/>.
/// </summary>
/// <param name="Out">Standard output.</param>
/// <param name="Error">Standard error.</param>
/// <param name="Interactive">True when standard error is a terminal: draw a live progress bar.</param>
internal sealed record CliConsole(TextWriter Out, TextWriter Error, bool Interactive)
{
    public static CliConsole FromSystemConsole() =>
        new(Console.Out, Console.Error, !Console.IsErrorRedirected && !Console.IsOutputRedirected);

    /// <summary>A Spectre console over standard error, for the live progress display.</summary>
    public IAnsiConsole CreateAnsiConsole() => AnsiConsole.Create(new AnsiConsoleSettings
    {
        Out = new AnsiConsoleOutput(Error),
        Interactive = Interactive ? InteractionSupport.Yes : InteractionSupport.No,
        Ansi = Interactive ? AnsiSupport.Detect : AnsiSupport.No,
    });
}
