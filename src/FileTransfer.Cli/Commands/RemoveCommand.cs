using System.CommandLine;

namespace FileTransfer.Cli.Commands;

internal static class RemoveCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server, or a full URL such as a signed delete link (REST)" };
        var ifMatch = new Option<string?>("--if-match")
        {
            Description = "Delete only the version with this ETag (quotes included, as info prints it); exit code 8 if the file changed",
        };
        var command = new Command("rm", "Delete a file") { name, ifMatch };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var file = context.Parse.GetValue(name)!;
            context.Interrupted = () => $"the delete may or may not have reached the server: 'filetransfer info {file}' tells whether the file is still there.";
            using var client = context.Settings.CreateClient();
            await client.DeleteAsync(file, context.Parse.GetValue(ifMatch), cancellationToken);
            context.Note($"Deleted {file}");
        }));
        return command;
    }
}
