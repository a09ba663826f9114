using System.CommandLine;
using FileTransfer.Cli.Progress;
using FileTransfer.Client;

namespace FileTransfer.Cli.Commands;

/// <summary>What a command's action works with: the parse result, the settings and the console.</summary>
internal sealed class CommandContext(ParseResult parse, ClientSettings settings, CliConsole console)
{
    public ParseResult Parse { get; } = parse;

    public ClientSettings Settings { get; } = settings;

    public CliConsole Console { get; } = console;

    public ITransferProgress Progress => ITransferProgress.For(Console, Settings.Quiet);

    /// <summary>
    /// What Ctrl+C leaves behind, said after "interrupted": set by the command to what is true of
    /// it (only a download to a file keeps a part to resume); asked when the interruption happens.
    /// </summary>
    public Func<string> Interrupted { get; set; } = () => "nothing was changed.";

    /// <summary>A line on standard error unless <c>--quiet</c>.</summary>
    public void Note(string message)
    {
        if (!Settings.Quiet)
        {
            Console.Error.WriteLine(message);
        }
    }

    /// <summary>
    /// Wraps a command body: parses the global options and maps every failure to its message and
    /// exit code (README "Exit codes"), the same for REST and gRPC.
    /// </summary>
    public static Func<ParseResult, CancellationToken, Task<int>> Action(
        GlobalOptions globals, CliConsole console, Func<CommandContext, CancellationToken, Task> body) =>
        async (parse, cancellationToken) =>
        {
            CommandContext? context = null;
            try
            {
                context = new CommandContext(parse, globals.Read(parse), console);
                await body(context, cancellationToken);
                return ExitCodes.Ok;
            }
            catch (CliException e)
            {
                await console.Error.WriteLineAsync($"filetransfer: {e.Message}");
                return e.ExitCode;
            }
            catch (FileTransferException e)
            {
                await console.Error.WriteLineAsync($"filetransfer: {WithHint(e)}");
                return ExitCodes.For(e.Kind);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                await console.Error.WriteLineAsync($"filetransfer: interrupted; {context?.Interrupted() ?? "nothing was changed."}");
                return ExitCodes.Interrupted;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Local file system problems (permissions, disk full); network errors were mapped already.
                await console.Error.WriteLineAsync($"filetransfer: {e.Message}");
                return ExitCodes.Other;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                // Never a silent exit: whatever was not foreseen is still reported.
                await console.Error.WriteLineAsync($"filetransfer: unexpected {e.GetType().Name}: {e.Message}");
                return ExitCodes.Other;
            }
        };

    // The hint is its own sentence, also after a message that does not end in one (a socket's or TLS's own text).
    private static string WithHint(FileTransferException e)
    {
        var hint = Hint(e);
        return hint.Length > 0 && !e.Message.EndsWith('.') ? $"{e.Message}.{hint}" : e.Message + hint;
    }

    private static string Hint(FileTransferException e) => e.Kind switch
    {
        FileTransferErrorKind.Unauthenticated => $" Pass --api-key KEY, set ${GlobalOptions.ApiKeyVariable}, or use a valid signed link.",
        FileTransferErrorKind.ConnectionLost when IsCertificateRefusal(e) =>
            " To trust the server's own certificate (self-signed) or its CA, pass --cacert FILE.pem; to accept any, --insecure.",
        FileTransferErrorKind.RateLimited or FileTransferErrorKind.ServiceUnavailable when e.RetryAfter is { } delay => $" Retry after {Math.Ceiling(delay.TotalSeconds)} s.",
        _ => string.Empty,
    };

    // The TLS handshake failed: SslStream's AuthenticationException, under REST's HttpRequestException
    // or under the RpcException's debug exception for gRPC.
    private static bool IsCertificateRefusal(Exception? e) => e switch
    {
        null => false,
        System.Security.Authentication.AuthenticationException => true,
        Grpc.Core.RpcException { Status.DebugException: { } debug } => IsCertificateRefusal(debug),
        _ => IsCertificateRefusal(e.InnerException),
    };
}
