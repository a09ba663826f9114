using System.CommandLine;
using FileTransfer.Cli.Http;
using FileTransfer.Cli.Progress;

namespace FileTransfer.Cli.Commands;

/// <summary>What a command's action works with: the parse result, the settings and the console.</summary>
internal sealed class CommandContext(ParseResult parse, ClientSettings settings, CliConsole console)
{
    public ParseResult Parse { get; } = parse;

    public ClientSettings Settings { get; } = settings;

    public CliConsole Console { get; } = console;

    public ITransferProgress Progress => ITransferProgress.For(Console, Settings.Quiet);

    public RemoteFile Resolve(string nameOrUrl) => RemoteFile.Resolve(nameOrUrl, Settings.Server);

    /// <summary>A request without a body to <paramref name="file"/>; an error status becomes its <see cref="CliException"/>.</summary>
    public async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpMethod method, RemoteFile file, CancellationToken cancellationToken)
    {
        using var request = RestClient.Request(method, file, Settings);
        var response = await Network.SendAsync(client, request, cancellationToken);
        try
        {
            await ResponseErrors.EnsureSuccessAsync(response, file.Name, cancellationToken);
            return response;
        }
        catch
        {
            response.Dispose();
            throw;
        }
    }

    /// <summary>A line on standard error unless <c>--quiet</c>.</summary>
    public void Note(string message)
    {
        if (!Settings.Quiet)
        {
            Console.Error.WriteLine(message);
        }
    }

    /// <summary>
    /// Wraps a command body: parses the global options, refuses gRPC, and maps every failure to
    /// its message and exit code (README "Exit codes").
    /// </summary>
    public static Func<ParseResult, CancellationToken, Task<int>> Action(
        GlobalOptions globals, CliConsole console, Func<CommandContext, CancellationToken, Task> body) =>
        async (parse, cancellationToken) =>
        {
            try
            {
                var settings = globals.Read(parse);
                settings.EnsureRest();
                await body(new CommandContext(parse, settings, console), cancellationToken);
                return ExitCodes.Ok;
            }
            catch (CliException e)
            {
                await console.Error.WriteLineAsync($"filetransfer: {e.Message}");
                return e.ExitCode;
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                await console.Error.WriteLineAsync("filetransfer: interrupted; a partial download is kept and resumes on the next run.");
                return ExitCodes.Interrupted;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Local file system problems (permissions, disk full); network errors were mapped already.
                await console.Error.WriteLineAsync($"filetransfer: {e.Message}");
                return ExitCodes.Other;
            }
        };
}
