using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Events;

/// <summary>What the event tests share: servers with a webhook, uploads, and reading the event stream.</summary>
internal static class EventServers
{
    /// <summary>Posts every event to <paramref name="receiver"/> (webhook 0), polling the outbox often so that retries are quick to see.</summary>
    public static T WithWebhook<T>(this T factory, WebhookReceiver receiver, int index = 0)
        where T : FileTransferFactory
    {
        factory.With($"Events:Webhooks:{index}:Url", receiver.Url.ToString())
            .With($"Events:Webhooks:{index}:Secret", receiver.Secret)
            .With("Events:PollMilliseconds", "100")
            .With("Events:Replica", "replica-a");
        return factory;
    }

    /// <summary>Asks <paramref name="receiver"/> as the hook <paramref name="which"/> (PreUpload, PreCommit).</summary>
    public static T WithHook<T>(this T factory, string which, WebhookReceiver receiver)
        where T : FileTransferFactory
    {
        factory.With($"Hooks:{which}:Url", receiver.Url.ToString()).With($"Hooks:{which}:Secret", receiver.Secret);
        return factory;
    }

    /// <summary>PUT <paramref name="bytes"/> as <paramref name="name"/>; returns the response (asserted 2xx).</summary>
    public static async Task<HttpResponseMessage> PutAsync(this HttpClient client, string name, byte[] bytes, bool web = false)
    {
        using var request = new HttpRequestMessage(HttpMethod.Put, "api/files/" + name) { Content = new ByteArrayContent(bytes) };
        if (web)
        {
            request.Headers.Add("FileTransfer-Client", "web");
        }

        var response = await client.SendAsync(request, TestTimeout.Token);
        response.EnsureSuccessStatusCode();
        return response;
    }

    public static string Sha256Hex(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));

    /// <summary>
    /// Reads <c>GET api/events</c> (SSE) until <paramref name="count"/> events arrived; returns them with their SSE ids.
    /// </summary>
    public static async Task<IReadOnlyList<(string Id, string Type, JsonElement Data)>> ReadSseAsync(HttpClient client, string query, int count, string? lastEventId = null, string? apiKey = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "api/events" + query);
        if (lastEventId is not null)
        {
            request.Headers.Add("Last-Event-ID", lastEventId);
        }

        if (apiKey is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
        }

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        response.EnsureSuccessStatusCode();
        Assert.Equal("text/event-stream", response.Content.Headers.ContentType?.MediaType);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync(timeout.Token));
        var events = new List<(string, string, JsonElement)>();
        string? id = null, type = null;
        while (events.Count < count && await reader.ReadLineAsync(timeout.Token) is { } line)
        {
            if (line.StartsWith("id: ", StringComparison.Ordinal))
            {
                id = line[4..];
            }
            else if (line.StartsWith("event: ", StringComparison.Ordinal))
            {
                type = line[7..];
            }
            else if (line.StartsWith("data: ", StringComparison.Ordinal))
            {
                events.Add((id!, type!, JsonDocument.Parse(line[6..]).RootElement.Clone()));
            }
        }

        return events;
    }
}
