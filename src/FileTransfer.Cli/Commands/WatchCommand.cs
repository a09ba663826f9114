using System.CommandLine;
using System.Globalization;
using System.Text;
using System.Text.Json;
using FileTransfer.Client;

namespace FileTransfer.Cli.Commands;

/// <summary><c>filetransfer watch [FOLDER]</c>: the server's events as they happen, until Ctrl+C.</summary>
internal static class WatchCommand
{
    public static Command Create(GlobalOptions globals, CliConsole console)
    {
        var folder = new Argument<string?>("folder") { Description = "Only names starting with this, e.g. videos/", Arity = ArgumentArity.ZeroOrOne };
        var json = new Option<bool>("--json") { Description = "One JSON object per line, as webhooks receive them: id, type, time, name, size, etag, sha256, protocol, caller, replica, uploadId" };
        var after = new Option<string?>("--after") { Description = "Resume after this event id (the retained events after it come first)" };
        var command = new Command("watch", "Print files created, replaced and deleted, and uploads started, completed, cancelled and expired, as they happen") { folder, json, after };
        command.SetAction(CommandContext.Action(globals, console, async (context, cancellationToken) =>
        {
            context.Interrupted = () => "nothing on the server changed.";
            using var client = context.Settings.CreateClient();
            var asJson = context.Parse.GetValue(json);
            await foreach (var e in client.WatchAsync(context.Parse.GetValue(folder), context.Parse.GetValue(after), cancellationToken))
            {
                await console.Out.WriteLineAsync(asJson ? Json(e) : Line(e));
                await console.Out.FlushAsync(cancellationToken);
            }
        }));
        return command;
    }

    // "2026-11-27T10:00:00.123Z  file.created      videos/a.mp4  (1234 bytes, rest, key:3f2a...)"
    private static string Line(FileTransferEvent e)
    {
        var details = new List<string>();
        if (e.Size is { } size)
        {
            details.Add(size.ToString(CultureInfo.InvariantCulture) + " bytes");
        }

        if (e.Protocol is { } protocol)
        {
            details.Add(protocol);
        }

        details.Add(e.Caller);
        return string.Create(CultureInfo.InvariantCulture, $"{e.Time.UtcDateTime:yyyy-MM-ddTHH:mm:ss.fffZ}  {e.Type,-16}  {e.Name}  ({string.Join(", ", details)})");
    }

    // Written member by member (no reflection: the tool is trimmed).
    private static string Json(FileTransferEvent e)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("id", e.Id);
            writer.WriteString("type", e.Type);
            writer.WriteString("time", e.Time.UtcDateTime);
            writer.WriteString("name", e.Name);
            if (e.Size is { } size)
            {
                writer.WriteNumber("size", size);
            }

            WriteIfSet(writer, "etag", e.ETag);
            WriteIfSet(writer, "sha256", e.Sha256);
            WriteIfSet(writer, "protocol", e.Protocol);
            writer.WriteString("caller", e.Caller);
            writer.WriteString("replica", e.Replica);
            WriteIfSet(writer, "uploadId", e.UploadId);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static void WriteIfSet(Utf8JsonWriter writer, string name, string? value)
    {
        if (value is not null)
        {
            writer.WriteString(name, value);
        }
    }
}
