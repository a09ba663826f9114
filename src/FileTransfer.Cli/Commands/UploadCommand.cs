using System.CommandLine;
using System.Globalization;
using System.Text.RegularExpressions;
using FileTransfer.Cli.Progress;
using FileTransfer.Client;

namespace FileTransfer.Cli.Commands;

internal static partial class UploadCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var path = new Argument<string>("path") { Description = "Local file to upload; - for standard input (then NAME is required)" };
        var name = new Argument<string?>("name")
        {
            Description = "Name on the server (default: the local file name), or a full URL such as a signed write link (REST)",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var overwrite = new Option<bool>("--overwrite") { Description = "Replace an existing file (the default)" };
        var noOverwrite = new Option<bool>("--no-overwrite")
        {
            Description = "Fail with exit code 8 if the file exists (REST If-None-Match: *, gRPC overwrite = false)",
        };
        var chunkSize = new Option<int?>("--chunk-size")
        {
            Description = "Bytes per gRPC upload message (REST: per read of the file), e.g. 65536, 256KiB, 1MiB; 1 B to 4 MiB (default 64 KiB)",
            CustomParser = ParseChunkSize,
        };
        var resume = new Option<bool>("--resume")
        {
            Description = "Send the file as a resumable upload: if this run is interrupted (even killed), the same command continues from the bytes the server kept, over REST or gRPC. State in $XDG_STATE_HOME/filetransfer/uploads",
        };
        var command = new Command("upload", "Upload a file, streamed, with its SHA-256 so that the server verifies it before it commits")
        {
            path, name, overwrite, noOverwrite, chunkSize, resume,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(overwrite) && result.GetValue(noOverwrite))
            {
                result.AddError("--overwrite and --no-overwrite cannot be used together.");
            }

            if (result.GetValue(path) == CliConsole.StandardStream && result.GetValue(resume))
            {
                result.AddError("--resume needs a local file: standard input cannot be read again from where an interrupted run stopped.");
            }

            if (result.GetValue(path) == CliConsole.StandardStream && string.IsNullOrEmpty(result.GetValue(name)))
            {
                result.AddError("upload - reads standard input, which has no file name: give the NAME to store it as, e.g. upload - backups/db.dump.");
            }
        });
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var source = context.Parse.GetValue(path)!;
            var resumable = context.Parse.GetValue(resume);

            // Without --resume the server stores all of an upload or nothing (docs/storage.md).
            var interrupted = resumable
                ? "the server keeps the bytes it received; run the same command to continue the upload."
                : "the server keeps nothing of an interrupted upload; a file it had under that name is unchanged.";
            context.Interrupted = () => interrupted;

            var options = new UploadOptions { Overwrite = !context.Parse.GetValue(noOverwrite), ResumeStateDirectory = resumable ? ResumeStateDirectory(globals) : null };
            using var client = context.Settings.CreateClient(context.Parse.GetValue(chunkSize));
            UploadResult result;
            string what;
            if (source == CliConsole.StandardStream)
            {
                // Streamed as it is read, of unknown length: hashed while it is sent, so the server
                // cannot check the digest before it commits; it is compared with what the server stored.
                await using var input = context.Console.OpenInput();
                var target = context.Parse.GetValue(name)!;
                result = await context.Progress.RunAsync(progress =>
                    client.UploadAsync(target, input, options, new ProgressReporter(progress), cancellationToken));
                what = "standard input";
            }
            else
            {
                var local = new FileInfo(source);
                if (!local.Exists)
                {
                    throw new CliException(ExitCodes.NotFound, $"There is no local file '{local.FullName}'.");
                }

                var target = context.Parse.GetValue(name) ?? local.Name;
                result = await context.Progress.RunAsync(progress =>
                    client.UploadFileAsync(local.FullName, target, options, new ProgressReporter(progress), cancellationToken));
                what = local.Name;
            }

            var stored = result.Created switch { true => "created", false => "replaced", null => "stored" };
            var check = result.VerifiedBeforeCommit ? "verified by the server" : "compared after the upload";
            var resumed = result.ResumedAt > 0 ? $", resumed at byte {result.ResumedAt}" : string.Empty;
            context.Note($"Uploaded {what} as {result.File.Name} ({Sizes.Format(result.File.Size)}, {stored}{resumed}; sha-256 {Convert.ToHexStringLower(result.Sha256)} {check})");
        }));
        return command;
    }

    // XDG Base Directory: state that should persist between runs ($XDG_STATE_HOME, default ~/.local/state).
    private static string ResumeStateDirectory(GlobalOptions globals)
    {
        var state = globals.Variable("XDG_STATE_HOME");
        var root = string.IsNullOrEmpty(state)
            ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".local", "state")
            : state;
        return Path.Combine(root, "filetransfer", "uploads");
    }

    private static int? ParseChunkSize(System.CommandLine.Parsing.ArgumentResult result)
    {
        var text = result.Tokens.Count == 0 ? string.Empty : result.Tokens[0].Value;
        var match = ChunkSizePattern().Match(text);
        if (!match.Success || !long.TryParse(match.Groups["n"].Value, NumberStyles.None, CultureInfo.InvariantCulture, out var number))
        {
            result.AddError($"--chunk-size must be a number of bytes, optionally with KiB or MiB (e.g. 65536, 256KiB, 1MiB), not '{text}'.");
            return null;
        }

        var unit = match.Groups["unit"].Value.ToUpperInvariant();
        var bytes = number * (unit.StartsWith('M') ? 1024 * 1024 : unit.StartsWith('K') ? 1024 : 1);
        if (bytes is < 1 or > FileTransferClientOptions.MaxUploadChunkSize)
        {
            result.AddError($"--chunk-size must be between 1 B and 4 MiB, not {text}.");
            return null;
        }

        return (int)bytes;
    }

    [GeneratedRegex(@"^(?<n>\d{1,10})\s*(?<unit>|B|K|KB|KiB|M|MB|MiB)$", RegexOptions.IgnoreCase)]
    private static partial Regex ChunkSizePattern();
}
