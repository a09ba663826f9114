using System.CommandLine;
using FileTransfer.Cli.Http;
using FileTransfer.Cli.Progress;
using FileTransfer.Cli.Transfers;

namespace FileTransfer.Cli.Commands;

internal static class UploadCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var path = new Argument<FileInfo>("path") { Description = "Local file to upload" };
        var name = new Argument<string?>("name")
        {
            Description = "Name on the server (default: the local file name), or a full URL such as a signed write link",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var overwrite = new Option<bool>("--overwrite") { Description = "Replace an existing file (the default)" };
        var noOverwrite = new Option<bool>("--no-overwrite") { Description = "Fail with exit code 8 if the file exists (sends If-None-Match: *)" };
        var command = new Command("upload", "Upload a file, streamed, with its SHA-256 in Content-Digest") { path, name, overwrite, noOverwrite };
        command.Validators.Add(result =>
        {
            if (result.GetValue(overwrite) && result.GetValue(noOverwrite))
            {
                result.AddError("--overwrite and --no-overwrite cannot be used together.");
            }
        });
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var local = context.Parse.GetValue(path)!;
            var target = context.Resolve(context.Parse.GetValue(name) ?? local.Name);
            using var client = RestClient.Create();
            var uploader = new Uploader(client, context.Settings);
            var result = await context.Progress.RunAsync(progress =>
                uploader.RunAsync(local.FullName, target, context.Parse.GetValue(noOverwrite), progress, cancellationToken));
            var what = result.Created ? "created" : "replaced";
            context.Note($"Uploaded {local.Name} as {result.Name} ({Sizes.Format(result.Size)}, {what}; sha-256 {result.Sha256} verified by the server)");
        }));
        return command;
    }
}
