using System.CommandLine;
using FileTransfer.Cli.Commands;

namespace FileTransfer.Cli;

/// <summary>The <c>filetransfer</c> command line: parses, runs one command, returns its exit code.</summary>
internal static class FileTransferCommand
{
    public static RootCommand Create(CliConsole console, Func<string, string?> environment)
    {
        var globals = new GlobalOptions(environment);
        var root = new RootCommand("filetransfer: download, upload, list, inspect, delete and watch files on a FileTransfer server.")
        {
            DownloadCommand.Create(globals, console),
            UploadCommand.Create(globals, console),
            ListCommand.Create(globals, console),
            InfoCommand.Create(globals, console),
            RemoveCommand.Create(globals, console),
            WatchCommand.Create(globals, console),
        };
        foreach (var option in globals.All)
        {
            root.Options.Add(option);
        }

        return root;
    }

    public static async Task<int> RunAsync(string[] args, CliConsole console, Func<string, string?> environment, CancellationToken cancellationToken = default)
    {
        var parse = Create(console, environment).Parse(args);
        var configuration = new InvocationConfiguration { Output = console.Out, Error = console.Error };
        if (parse.Errors.Count > 0)
        {
            // Usage errors get their own exit code (System.CommandLine's default is 1, "other").
            foreach (var error in parse.Errors)
            {
                await console.Error.WriteLineAsync($"filetransfer: {error.Message}");
            }

            await console.Error.WriteLineAsync("Run 'filetransfer --help' for usage.");
            return ExitCodes.Usage;
        }

        return await parse.InvokeAsync(configuration, cancellationToken);
    }
}
