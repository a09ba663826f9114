using Spectre.Console;

namespace FileTransfer.Cli;

/// <summary>
/// Where the tool reads and writes. Results go to <see cref="Out"/> (so that <c>ls</c> pipes
/// cleanly); progress, notes and errors go to <see cref="Error"/>. File bytes for <c>-</c> come
/// from <see cref="OpenInput"/> and go to <see cref="OpenOutput"/>, the raw standard streams.
/// </summary>
/// <param name="Out">Standard output, as text.</param>
/// <param name="Error">Standard error.</param>
/// <param name="Interactive">True when standard error is a terminal: draw a live progress bar.</param>
/// <param name="OpenInput">Standard input, as bytes (<c>upload -</c>).</param>
/// <param name="OpenOutput">Standard output, as bytes (<c>download NAME -o -</c>).</param>
internal sealed record CliConsole(TextWriter Out, TextWriter Error, bool Interactive, Func<Stream> OpenInput, Func<Stream> OpenOutput)
{
    /// <summary>The path that means standard input (<c>upload -</c>) or output (<c>-o -</c>), as in curl and aws s3 cp.</summary>
    public const string StandardStream = "-";

    public static CliConsole FromSystemConsole() =>
        new(Console.Out, Console.Error, !Console.IsErrorRedirected && !Console.IsOutputRedirected, Console.OpenStandardInput, Console.OpenStandardOutput);

    /// <summary>A Spectre console over standard error, for the live progress display.</summary>
    public IAnsiConsole CreateAnsiConsole() => AnsiConsole.Create(new AnsiConsoleSettings
    {
        Out = new AnsiConsoleOutput(Error),
        Interactive = Interactive ? InteractionSupport.Yes : InteractionSupport.No,
        Ansi = Interactive ? AnsiSupport.Detect : AnsiSupport.No,
    });
}
