using System.CommandLine;
using System.Globalization;
using FileTransfer.Cli.Http;

namespace FileTransfer.Cli.Commands;

internal static class InfoCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server, or a full URL" };
        var command = new Command("info", "Show a file's size, type, modification time, ETag and SHA-256 (HEAD request)") { name };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            var file = context.Resolve(context.Parse.GetValue(name)!);
            using var client = RestClient.Create();
            using var response = await context.SendAsync(client, HttpMethod.Head, file, cancellationToken);

            var content = response.Content.Headers;
            var sha256 = Digests.ReadSha256(response, Digests.ReprDigest);
            await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"""
                name: {file.Name}
                size: {content.ContentLength}
                content-type: {content.ContentType}
                last-modified: {content.LastModified?.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}
                etag: {response.Headers.ETag}
                sha-256: {(sha256 is null ? "(not announced)" : Digests.Hex(sha256))}
                http-version: {response.Version}
                """));
        }));
        return command;
    }
}
