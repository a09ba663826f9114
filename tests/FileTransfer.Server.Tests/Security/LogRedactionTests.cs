using System.Net;
using System.Text;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.HttpLogging;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Signed-link tokens and API keys never reach a log line, at any level, from any component: hosting
/// diagnostics (the URL with its query), HTTP logging with every field and the credential headers
/// allowed, exception messages, Kestrel's bad-request details. Logs are captured at Trace.
/// </summary>
public sealed class LogRedactionTests
{
    private const string WrongKey = "not-a-configured-key-0123456789";

    [Fact]
    public async Task Links_And_Keys_Never_Reach_A_Log_Line_Even_At_Trace_With_Http_Logging()
    {
        using var factory = new LoggingFactory { HttpLogging = true };
        factory.Storage.Write("f.txt", [1, 2, 3]);
        factory.Storage.Write("other.txt", [4]);
        using var issuer = factory.ClientWith(FileTransferFactory.TestKey);
        var read = (await SignedLinkTests.IssueAsync(issuer, new { path = "f.txt", access = "read" })).Token;
        var write = (await SignedLinkTests.IssueAsync(issuer, new { path = "up.bin", access = "write" })).Token;
        using var anonymous = factory.ClientWith(null);
        using var apiKeyHeader = factory.ClientWith(SecurityFactory.ReadKey, asApiKeyHeader: true);
        using var wrongKey = factory.ClientWith(WrongKey);
        var altered = read[..^1] + (read[^1] == 'A' ? 'B' : 'A');

        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync($"/api/files/f.txt?sig={read}", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/f.txt?SIG={read}"), TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync($"/api/files/f.txt?x=1&sIg={read}", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await anonymous.GetAsync($"/api/files/other.txt?sig={read}", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await anonymous.GetAsync($"/api/files/f.txt?sig={altered}", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await anonymous.PutAsync($"/api/files/up.bin?sig={write}", new ByteArrayContent([9]), TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await apiKeyHeader.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await wrongKey.GetAsync("/api/files", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.InternalServerError, (await issuer.GetAsync($"/api/files/probe-fail/x?sig={read}", TestTimeout.Token)).StatusCode);

        var entries = factory.Sink.Entries.ToList();
        AssertNoneShows(entries, read, write, altered, FileTransferFactory.TestKey, SecurityFactory.ReadKey, WrongKey);

        // The places that carried them did log, redacted: the request line, HTTP logging's headers
        // and response body (the issued link), and the exception that quoted the query and the key.
        Assert.Contains(entries, e => e.Category == "Microsoft.AspNetCore.Hosting.Diagnostics" && e.Message.Contains("/api/files/f.txt?sig=[redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Message.Contains("?x=1&sIg=[redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Category.Contains("HttpLogging", StringComparison.Ordinal) && e.Message.Contains("Authorization: [redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Category.Contains("HttpLogging", StringComparison.Ordinal) && e.Message.Contains("X-Api-Key: [redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Category.Contains("HttpLogging", StringComparison.Ordinal) && e.Message.Contains("\"token\":\"[redacted]\"", StringComparison.Ordinal));
        var failure = Assert.Single(entries, e => e.Exception?.Contains("Could not serve", StringComparison.Ordinal) == true);
        Assert.Contains("System.InvalidOperationException: Could not serve x?sig=[redacted] for Bearer [redacted]", failure.Exception, StringComparison.Ordinal);
        Assert.Contains(entries, e => e.Level == LogLevel.Trace);
    }

    [Fact]
    public async Task A_Bad_Request_Line_With_A_Link_Is_Logged_By_Kestrel_Redacted()
    {
        using var factory = new LoggingFactory();
        factory.UseKestrel();
        factory.With("Kestrel:Endpoints:Http1:Url", "http://127.0.0.1:0").With("Kestrel:Endpoints:Http2:Url", "http://127.0.0.1:0");
        factory.Storage.Write("f.txt", [1]);
        factory.StartServer();
        var address = factory.Services.GetRequiredService<ListeningEndpoints>().Get(HttpProtocols.Http1);
        using var issuer = KestrelFactory.ClientFor(address, HttpVersion.Version11);
        var token = (await SignedLinkTests.IssueAsync(issuer, new { path = "f.txt", access = "read" })).Token;

        // A NUL makes Kestrel refuse the request line and quote it in its exception. The query
        // parser decodes names, so a percent-encoded name is a link too (sent as raw bytes here).
        var refused = await RawHttp.SendAsync(address, "GET", Encoding.ASCII.GetBytes($"/api/files/f.txt?sig={token}\0"), []);
        var encoded = await RawHttp.SendAsync(address, "GET", Encoding.ASCII.GetBytes($"/api/files/f.txt?%73%49G={token}"), []);

        Assert.Equal(400, refused.Status);
        Assert.Equal(200, encoded.Status);
        var entries = await EventuallyAsync(factory.Sink, e => e.Exception?.Contains("Invalid request", StringComparison.Ordinal) == true);
        AssertNoneShows(entries, token, FileTransferFactory.TestKey);
        Assert.Contains(entries, e => e.Exception?.Contains("?sig=[redacted]", StringComparison.Ordinal) == true && e.Message.Contains("[redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Message.Contains("/api/files/f.txt?%73%49G=[redacted]", StringComparison.Ordinal));
    }

    [Fact]
    public async Task The_Development_Key_Line_Is_The_One_Line_That_Shows_A_Key()
    {
        using var keys = new TempStorage();
        using var factory = new LoggingFactory { HttpLogging = true, Development = true };
        factory.Without("Auth:ApiKeys").With("Auth:DevelopmentKeyFolder", Path.Combine(keys.RootPath, "keys"));
        factory.Storage.Write("f.txt", [1]);
        using var client = factory.ClientWith(null);
        var key = factory.Services.GetRequiredService<ApiKeyStore>().DevelopmentKey!.Key;
        using var bearer = factory.ClientWith(key);
        using var apiKeyHeader = factory.ClientWith(key, asApiKeyHeader: true);

        Assert.Equal(HttpStatusCode.OK, (await bearer.GetAsync("/api/files/f.txt", TestTimeout.Token)).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await apiKeyHeader.PutAsync("/api/files/g.txt", new ByteArrayContent([2]), TestTimeout.Token)).StatusCode);

        var showing = Assert.Single(factory.Sink.Entries, e => e.Text.Contains(key, StringComparison.Ordinal));
        Assert.Equal(DevelopmentKeyFile.LogCategory, showing.Category);
        Assert.Equal(101, showing.EventId.Id);
        Assert.Contains("This is the one log line that shows a key", showing.Message, StringComparison.Ordinal);
        Assert.Contains($"Authorization: Bearer {key}", showing.Message, StringComparison.Ordinal);
        Assert.Contains(factory.Sink.Entries, e => e.Message.Contains("Authorization: [redacted]", StringComparison.Ordinal));
    }

    [Fact]
    public void A_Template_Built_At_Run_Time_Is_Redacted_In_Every_Field_And_Every_Call()
    {
        var sink = new LogSink();
        using var factory = new RedactingLoggerFactory(new LoggerFactory([sink]));
        var logger = factory.CreateLogger("Test");
        var key = "k-" + Guid.NewGuid().ToString("N");
#pragma warning disable CA2254 // The point: a template that is not a constant.
        for (var i = 0; i < 2; i++)
        {
            logger.LogWarning("Retrying with Authorization: Bearer " + key);
        }
#pragma warning restore CA2254

        Assert.Equal(2, sink.Entries.Count);
        foreach (var entry in sink.Entries)
        {
            Assert.DoesNotContain(key, entry.Text, StringComparison.Ordinal);
            Assert.Contains(entry.Fields, f => f.Contains("Authorization: [redacted]", StringComparison.Ordinal));
        }
    }

    private static void AssertNoneShows(IReadOnlyList<LogSink.Entry> entries, params string[] secrets)
    {
        Assert.True(entries.Count > 50, $"only {entries.Count} log entries captured");

        // A token's signature alone is as good as the token: look for it too.
        var needles = secrets.Concat(secrets.Where(s => s.Contains('.', StringComparison.Ordinal)).Select(s => s[(s.IndexOf('.', StringComparison.Ordinal) + 1)..]));
        foreach (var needle in needles)
        {
            var leak = entries.FirstOrDefault(e => e.Text.Contains(needle, StringComparison.Ordinal));
            Assert.True(leak is null, $"{leak?.Category}[{leak?.EventId.Id}] shows a credential: {leak?.Text}");
        }
    }

    private static async Task<IReadOnlyList<LogSink.Entry>> EventuallyAsync(LogSink sink, Func<LogSink.Entry, bool> expected)
    {
        while (!sink.Entries.Any(expected))
        {
            await Task.Delay(20, TestTimeout.Token);
        }

        return [.. sink.Entries];
    }

    /// <summary>The security test server with every category at Trace into a <see cref="LogSink"/>, and optionally HTTP logging of everything.</summary>
    private sealed class LoggingFactory : SecurityFactory
    {
        public LoggingFactory()
        {
            foreach (var category in new[] { "Default", "Microsoft", "Microsoft.AspNetCore", "Microsoft.Hosting.Lifetime" })
            {
                With($"Logging:LogLevel:{category}", "Trace");
            }
        }

        public LogSink Sink { get; } = new();

        public bool HttpLogging { get; init; }

        public bool Development { get; init; }

        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            base.ConfigureWebHost(builder);
            if (Development)
            {
                builder.UseEnvironment("Development");
            }

            builder.ConfigureLogging(logging =>
            {
                logging.ClearProviders();
                logging.AddProvider(Sink);
            });
            if (HttpLogging)
            {
                builder.ConfigureTestServices(services =>
                {
                    // What an operator debugging a client might turn on: every field, the credential headers, bodies.
                    services.AddHttpLogging(options =>
                    {
                        options.LoggingFields = HttpLoggingFields.All;
                        options.RequestHeaders.Add("Authorization");
                        options.RequestHeaders.Add(FileTransferAuthenticationHandler.ApiKeyHeader);
                        options.MediaTypeOptions.AddText("application/json");
                        options.MediaTypeOptions.AddText("application/problem+json");
                    });
                    services.AddSingleton<IStartupFilter, HttpLoggingFirst>();
                });
            }
        }

        private sealed class HttpLoggingFirst : IStartupFilter
        {
            public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
            {
                app.UseHttpLogging();
                next(app);
            };
        }
    }
}
