using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace FileTransfer.Cli.Commands;

internal static class ListCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var prefix = new Argument<string?>("prefix") { Description = "Only names starting with this, e.g. videos/", Arity = ArgumentArity.ZeroOrOne };
        var json = new Option<bool>("--json") { Description = "A JSON array in the REST listing's shape: name, size, contentType, lastModified, eTag" };
        var command = new Command("ls", "List files: size in bytes, last modified (UTC), name") { prefix, json };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            context.Interrupted = () => "the listing is incomplete; nothing on the server changed.";
            using var client = context.Settings.CreateClient();
            var files = client.ListAsync(context.Parse.GetValue(prefix), cancellationToken);
            if (context.Parse.GetValue(json))
            {
                // Written as the pages arrive (gRPC follows next_page_token to the end).
                await console.Out.WriteAsync('[');
                var first = true;
                await foreach (var file in files)
                {
                    await console.Out.WriteAsync((first ? string.Empty : ",") + JsonSerializer.Serialize(
                        new Entry(file.Name, file.Size, file.ContentType, file.LastModified, file.ETag), ListJson.Default.Entry));
                    first = false;
                }

                await console.Out.WriteLineAsync(']');
                return;
            }

            // One line per file, columns separated by two spaces, the name last so that it may contain spaces.
            // The size column is as wide as the largest size, so the listing is read before it is printed.
            var lines = new List<(string Size, DateTimeOffset? Time, string Name)>();
            await foreach (var file in files)
            {
                lines.Add((file.Size.ToString(CultureInfo.InvariantCulture), file.LastModified, file.Name));
            }

            var width = lines.Count == 0 ? 1 : lines.Max(l => l.Size.Length);
            foreach (var (size, time, name) in lines)
            {
                await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{size.PadLeft(width)}  {time?.UtcDateTime:yyyy-MM-ddTHH:mm:ssZ}  {name}"));
            }
        }));
        return command;
    }

    internal sealed record Entry(string Name, long Size, string? ContentType, DateTimeOffset? LastModified, string? ETag);
}

/// <summary>The listing's JSON, generated at build time: the tool is published with Native AOT, where reflection-based serialization is not available.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(ListCommand.Entry))]
internal sealed partial class ListJson : JsonSerializerContext;
