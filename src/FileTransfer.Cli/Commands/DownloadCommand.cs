using System.CommandLine;
using FileTransfer.Cli.Http;
using FileTransfer.Cli.Progress;
using FileTransfer.Cli.Transfers;

namespace FileTransfer.Cli.Commands;

internal static class DownloadCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server (e.g. videos/big.bin), or a full URL such as a signed link" };
        var output = new Option<string?>("--output", "-o")
        {
            Description = "Where to write the file (default: its name in the current folder; an existing folder keeps the name)",
        };
        var command = new Command("download", "Download a file; resumes PATH.part, verifies the SHA-256 from Repr-Digest") { name, output };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var file = context.Resolve(context.Parse.GetValue(name)!);
            var part = new PartialFile(OutputPath(context.Parse.GetValue(output), file.FileName));
            using var client = RestClient.Create();
            var downloader = new Downloader(client, context.Settings, console.Error);
            var result = await context.Progress.RunAsync(progress => downloader.RunAsync(file, part, progress, cancellationToken));
            var resumed = result.ResumedAt > 0 ? $", resumed at byte {result.ResumedAt}" : string.Empty;
            var verified = result.Verified ? "verified" : "not verified";
            context.Note($"Downloaded {file.Name} to {result.Path} ({Sizes.Format(result.Size)}{resumed}; sha-256 {Convert.ToHexStringLower(result.Sha256)} {verified})");
        }));
        return command;
    }

    private static string OutputPath(string? requested, string fileName)
    {
        if (string.IsNullOrEmpty(requested))
        {
            return fileName;
        }

        return Directory.Exists(requested) || requested.EndsWith('/') || requested.EndsWith(Path.DirectorySeparatorChar)
            ? Path.Combine(requested, fileName)
            : requested;
    }
}
