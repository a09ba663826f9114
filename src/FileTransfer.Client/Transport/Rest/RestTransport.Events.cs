using System.Runtime.CompilerServices;
using System.Text.Json;

namespace FileTransfer.Client.Transport.Rest;

internal sealed partial class RestTransport
{
    /// <summary>Server-Sent Events from <c>GET api/events</c>: each <c>data:</c> line is one event's JSON.</summary>
    public async IAsyncEnumerable<FileTransferEvent> WatchAsync(string? prefix, string? after, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var query = "api/events?prefix=" + Uri.EscapeDataString(prefix ?? string.Empty) + (after is null ? string.Empty : "&after=" + Uri.EscapeDataString(after));
        var url = new Uri(server, query);
        using var request = Request(HttpMethod.Get, url, apiKey);
        using var response = await SendAsync(request, cancellationToken);
        await RestErrors.EnsureSuccessAsync(response, "api/events", mustNotExist: false, cancellationToken);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(cancellationToken));
        while (true)
        {
            string? line;
            try
            {
                line = await reader.ReadLineAsync(cancellationToken);
            }
            catch (Exception e) when (HttpHandlers.IsConnectionFailure(e))
            {
                throw new FileTransferException(FileTransferErrorKind.ConnectionLost, $"The event stream from {server.GetLeftPart(UriPartial.Authority)} was cut: {HttpHandlers.Innermost(e).Message}", innerException: e);
            }

            if (line is null)
            {
                yield break;
            }

            if (line.StartsWith("data:", StringComparison.Ordinal))
            {
                yield return Parse(line[5..].TrimStart());
            }
        }
    }

    private static FileTransferEvent Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        var e = document.RootElement;
        string? Text(string name) => e.TryGetProperty(name, out var value) ? value.GetString() : null;
        return new FileTransferEvent(
            Text("id")!,
            Text("type")!,
            e.GetProperty("time").GetDateTimeOffset(),
            Text("name")!,
            e.TryGetProperty("size", out var size) ? size.GetInt64() : null,
            Text("etag"),
            Text("sha256"),
            Text("protocol"),
            Text("caller") ?? string.Empty,
            Text("replica") ?? string.Empty,
            Text("uploadId"));
    }
}
