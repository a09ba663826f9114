using System.CommandLine;
using FileTransfer.Cli.Progress;
using FileTransfer.Client;

namespace FileTransfer.Cli.Commands;

internal static class DownloadCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server (e.g. videos/big.bin), or a full URL such as a signed link (REST)" };
        var output = new Option<string?>("--output", "-o")
        {
            Description = "Where to write the file (default: its name in the current folder; an existing folder keeps the name); - for standard output",
        };
        var command = new Command("download", "Download a file; resumes PATH.part, verifies the SHA-256 the server announces") { name, output };
        command.Validators.Add(result =>
        {
            // A name given, but no file's (a missing one is the parser's own error).
            if (result.GetResult(name) is { Tokens: [var given] } && NameError(given.Value) is { } error)
            {
                result.AddError(error);
            }
        });
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var remote = context.Parse.GetValue(name)!;
            if (context.Parse.GetValue(output) == CliConsole.StandardStream)
            {
                await ToStandardOutputAsync(context, remote, cancellationToken);
                return;
            }

            var path = OutputPath(context.Parse.GetValue(output), FileTransferClient.GetFileName(remote));
            var part = Path.GetFullPath(path) + ".part";
            context.Interrupted = () => File.Exists(part) && new FileInfo(part).Length is > 0 and var kept
                ? $"the {Sizes.Format(kept)} received so far are kept in {part}; run the same command to resume."
                : "nothing was received, and nothing is kept.";
            using var client = context.Settings.CreateClient();
            var result = await context.Progress.RunAsync(progress =>
                client.DownloadToFileAsync(remote, path, new ProgressReporter(progress), cancellationToken));

            if (result.Restarted == DownloadRestartReason.FileChanged)
            {
                context.Note($"The file changed on the server since {part} was written; it was downloaded again from the start.");
            }
            else if (result.Restarted == DownloadRestartReason.PartLongerThanFile)
            {
                context.Note($"{part} was longer than the file on the server; it was downloaded again from the start.");
            }
            else if (result.ResumedWithoutETag)
            {
                context.Note($"{part} had no recorded ETag; it was resumed relying on the digest check.");
            }

            NoteRetriesAndVerification(context, result);
            var resumed = result.ResumedAt > 0 ? $", resumed at byte {result.ResumedAt}" : string.Empty;
            var verified = result.Verified ? "verified" : "not verified";
            context.Note($"Downloaded {result.File.Name} to {result.Path} ({Sizes.Format(result.Length)}{resumed}; sha-256 {Convert.ToHexStringLower(result.Sha256)} {verified})");
        }));
        return command;
    }

    /// <summary>
    /// <c>-o -</c>: the bytes go to standard output as they arrive, nothing else does (progress and
    /// notes are on standard error). A dropped connection is still resumed; nothing is kept to
    /// resume another run, and a mismatching digest is found only after the bytes were written.
    /// </summary>
    private static async Task ToStandardOutputAsync(CommandContext context, string remote, CancellationToken cancellationToken)
    {
        context.Interrupted = () => "what was written to standard output is incomplete; nothing is kept to resume.";
        using var client = context.Settings.CreateClient();
        await using var output = context.Console.OpenOutput();
        var result = await context.Progress.RunAsync(progress =>
            client.DownloadAsync(remote, output, progress: new ProgressReporter(progress), cancellationToken: cancellationToken));
        NoteRetriesAndVerification(context, result);
        var verified = result.Verified ? "verified" : "not verified";
        context.Note($"Downloaded {result.File.Name} to standard output ({Sizes.Format(result.Length)}; sha-256 {Convert.ToHexStringLower(result.Sha256)} {verified})");
    }

    private static void NoteRetriesAndVerification(CommandContext context, DownloadResult result)
    {
        if (result.Retries > 0)
        {
            context.Note($"The connection dropped; the download was resumed where it stopped ({result.Retries} retries).");
        }

        if (!result.Verified)
        {
            context.Note("The server announced no SHA-256; the download was not verified.");
        }
    }

    // A download needs a file's name: the local file is named after its last segment.
    private static string? NameError(string remote) =>
        remote.Length == 0 ? "The file name is empty: download takes the name of a file on the server, e.g. videos/big.bin."
        : FileTransferClient.GetFileName(remote).Length == 0
            ? $"'{remote}' names a folder, not a file: download takes a file's name (filetransfer ls {remote} lists the files in it)."
        : null;

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
