using System.Net.Http.Headers;

namespace FileTransfer.Core;

/// <summary>
/// The requests the server makes to webhook receivers and hooks: a JSON POST signed as Standard
/// Webhooks says (<see cref="WebhookSignature"/>), over one shared client that never follows a
/// redirect (the URL comes from configuration; an answer must not send the event elsewhere) and
/// never sends cookies.
/// </summary>
internal static class SignedRequests
{
    public static readonly HttpClient Client = new(new SocketsHttpHandler
    {
        AllowAutoRedirect = false,
        UseCookies = false,
        ConnectTimeout = TimeSpan.FromSeconds(5),
        PooledConnectionLifetime = TimeSpan.FromMinutes(5),
    })
    {
        Timeout = Timeout.InfiniteTimeSpan,
    };

    private static readonly MediaTypeHeaderValue Json = new("application/json");

    /// <summary>A POST of <paramref name="body"/> to <paramref name="url"/>, signed with <paramref name="key"/> now.</summary>
    public static HttpRequestMessage Post(string url, byte[] key, string id, byte[] body, TimeProvider time)
    {
        var timestamp = time.GetUtcNow().ToUnixTimeSeconds();
        var request = new HttpRequestMessage(HttpMethod.Post, url) { Content = new ByteArrayContent(body) };
        request.Content.Headers.ContentType = Json;
        request.Headers.TryAddWithoutValidation(WebhookSignature.IdHeader, id);
        request.Headers.TryAddWithoutValidation(WebhookSignature.TimestampHeader, timestamp.ToString(System.Globalization.CultureInfo.InvariantCulture));
        request.Headers.TryAddWithoutValidation(WebhookSignature.SignatureHeader, WebhookSignature.Sign(key, id, timestamp, body));
        return request;
    }
}
