using System.CommandLine;
using System.Globalization;

namespace FileTransfer.Cli.Commands;

internal static class InfoCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var name = new Argument<string>("name") { Description = "File name on the server, or a full URL (REST)" };
        var command = new Command("info", "Show a file's size, type, modification time, ETag and SHA-256 (REST HEAD, gRPC GetFileInfo)") { name };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            using var client = context.Settings.CreateClient();
            var file = await client.GetInfoAsync(context.Parse.GetValue(name)!, cancellationToken);
            await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"""
                name: {file.Name}
                size: {file.Size}
                content-type: {file.ContentType}
                last-modified: {file.LastModified?.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}
                etag: {file.ETag}
                sha-256: {(file.Sha256 is null ? "(not announced)" : Convert.ToHexStringLower(file.Sha256))}
                protocol: {(client.Protocol == Client.FileTransferProtocol.Grpc ? "grpc" : "rest")}
                http-version: {file.HttpVersion}
                """));
        }));
        return command;
    }
}
