using System.CommandLine;
using FileTransfer.Cli.Http;

namespace FileTransfer.Cli.Commands;

internal static class RemoveCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server, or a full URL such as a signed delete link" };
        var command = new Command("rm", "Delete a file") { name };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var file = context.Resolve(context.Parse.GetValue(name)!);
            using var client = RestClient.Create();
            using var response = await context.SendAsync(client, HttpMethod.Delete, file, cancellationToken);
            context.Note($"Deleted {file.Name}");
        }));
        return command;
    }
}
