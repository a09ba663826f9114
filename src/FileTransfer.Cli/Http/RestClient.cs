using System.Net;
using System.Net.Http.Headers;
using System.Reflection;

namespace FileTransfer.Cli.Http;

/// <summary>The one HttpClient the tool uses, tuned for large transfers.</summary>
internal static class RestClient
{
    private static readonly ProductInfoHeaderValue UserAgent =
        new("filetransfer", typeof(RestClient).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "1.0");

    public static HttpClient Create()
    {
        var handler = new SocketsHttpHandler
        {
            // HTTP/2: start each stream with a 16 MiB window instead of 64 KiB, so that one large
            // download is not throttled by window updates while the dynamic window grows, and
            // open more connections when the server's stream limit is reached.
            InitialHttp2StreamWindowSize = 16 * 1024 * 1024,
            EnableMultipleHttp2Connections = true,
            // Detect a dead HTTP/2 connection during a long transfer instead of waiting forever.
            KeepAlivePingDelay = TimeSpan.FromSeconds(30),
            KeepAlivePingTimeout = TimeSpan.FromSeconds(30),
            KeepAlivePingPolicy = HttpKeepAlivePingPolicy.WithActiveRequests,
            ConnectTimeout = TimeSpan.FromSeconds(30),
            AutomaticDecompression = DecompressionMethods.None,
        };

        var client = new HttpClient(handler, disposeHandler: true)
        {
            // Transfers of any size: stalls are detected per read (Transfers/StallGuard), not by a total timeout.
            Timeout = Timeout.InfiniteTimeSpan,
        };
        client.DefaultRequestHeaders.UserAgent.Add(UserAgent);
        return client;
    }

    /// <summary>
    /// "2" on http:// is HTTP/2 with prior knowledge (h2c, RFC 9113 3.3): the server's cleartext
    /// HTTP/2 port speaks nothing else. On https:// ALPN negotiates; without --http it may fall back to 1.1.
    /// </summary>
    internal static (Version Version, HttpVersionPolicy Policy) VersionFor(string? requested, Uri target) => requested switch
    {
        "2" => (HttpVersion.Version20, HttpVersionPolicy.RequestVersionExact),
        "1.1" => (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact),
        _ when target.Scheme == Uri.UriSchemeHttps => (HttpVersion.Version20, HttpVersionPolicy.RequestVersionOrLower),
        _ => (HttpVersion.Version11, HttpVersionPolicy.RequestVersionExact),
    };

    /// <summary>A request to <paramref name="file"/>, with the API key unless the URL is a signed link.</summary>
    public static HttpRequestMessage Request(HttpMethod method, RemoteFile file, ClientSettings settings) =>
        Request(method, file.Url, settings.HttpVersion, file.IsLink ? null : settings.ApiKey);

    public static HttpRequestMessage Request(HttpMethod method, Uri url, string? httpVersion, string? apiKey)
    {
        // Set on each request: HttpClient's DefaultRequestVersion only applies to requests it creates itself.
        var (version, policy) = VersionFor(httpVersion, url);
        var request = new HttpRequestMessage(method, url) { Version = version, VersionPolicy = policy };
        if (apiKey is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", apiKey);
        }

        return request;
    }
}
