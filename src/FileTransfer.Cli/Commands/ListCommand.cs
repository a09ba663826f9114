using System.CommandLine;
using System.Globalization;
using System.Net.Http.Json;
using FileTransfer.Cli.Http;

namespace FileTransfer.Cli.Commands;

internal static class ListCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var prefix = new Argument<string?>("prefix") { Description = "Only names starting with this, e.g. videos/", Arity = ArgumentArity.ZeroOrOne };
        var json = new Option<bool>("--json") { Description = "Print the server's JSON as it is" };
        var command = new Command("ls", "List files: size in bytes, last modified (UTC), name") { prefix, json };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var url = RemoteFile.ListUrl(context.Settings.Server, context.Parse.GetValue(prefix));
            using var client = RestClient.Create();
            using var request = RestClient.Request(HttpMethod.Get, url, context.Settings.HttpVersion, context.Settings.ApiKey);
            using var response = await Network.SendAsync(client, request, cancellationToken);
            await ResponseErrors.EnsureSuccessAsync(response, "api/files", cancellationToken);
            if (context.Parse.GetValue(json))
            {
                await console.Out.WriteLineAsync(await response.Content.ReadAsStringAsync(cancellationToken));
                return;
            }

            // One line per file, columns separated by two spaces, the name last so that it may contain spaces.
            var files = await response.Content.ReadFromJsonAsync<List<Entry>>(cancellationToken) ?? [];
            var width = files.Count == 0 ? 1 : files.Max(f => f.Size.ToString(CultureInfo.InvariantCulture).Length);
            foreach (var file in files)
            {
                await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{file.Size.ToString(CultureInfo.InvariantCulture).PadLeft(width)}  {file.LastModified.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}  {file.Name}"));
            }
        }));
        return command;
    }

    private sealed record Entry(string Name, long Size, DateTimeOffset LastModified);
}
