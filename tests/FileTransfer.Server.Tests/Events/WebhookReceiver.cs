using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using StandardWebhooks;

namespace FileTransfer.Server.Tests.Events;

/// <summary>
/// A webhook receiver on real Kestrel (loopback, port 0) that verifies each request with the
/// Standard Webhooks reference library (NuGet <c>StandardWebhooks</c>) and records it. It can be told
/// to refuse (503) or to hang, as a receiver that is down or slow would.
/// </summary>
public sealed class WebhookReceiver : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly StandardWebhook _verifier;

    private WebhookReceiver(WebApplication app, string secret)
    {
        _app = app;
        Secret = secret;
        _verifier = new StandardWebhook(secret);
    }

    public enum Behaviour
    {
        Accept,
        Refuse,
        Hang,
    }

    /// <summary>A fresh <c>whsec_</c> secret.</summary>
    public static string NewSecret() => "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

    public string Secret { get; }

    public Uri Url { get; private set; } = null!;

    public Behaviour Mode { get; set; }

    /// <summary>When set, answers each verified request instead of <see cref="Mode"/> (a hook's answer).</summary>
    public Func<HttpContext, Task>? Answer { get; set; }

    /// <summary>Every request that arrived, in order (also the refused ones).</summary>
    public ConcurrentQueue<Delivery> Requests { get; } = new();

    /// <summary>The verified events it accepted.</summary>
    public IReadOnlyList<JsonElement> Accepted => [.. Requests.Where(r => r.Accepted).Select(r => r.Event)];

    public static async Task<WebhookReceiver> StartAsync(string? secret = null)
    {
        var builder = WebApplication.CreateSlimBuilder();
        // The server's appsettings.json beside the tests names fixed ports: its endpoints are moved to free ones.
        foreach (var endpoint in new[] { "Http1", "Http2" })
        {
            builder.Configuration[$"Kestrel:Endpoints:{endpoint}:Url"] = "http://127.0.0.1:0";
            builder.Configuration[$"Kestrel:Endpoints:{endpoint}:Protocols"] = "Http1";
        }

        builder.Logging.ClearProviders();
        var app = builder.Build();
        var receiver = new WebhookReceiver(app, secret ?? NewSecret());
        app.MapPost("/hook", receiver.ReceiveAsync);
        await app.StartAsync(TestTimeout.Token);
        receiver.Url = new Uri(new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First()), "/hook");
        return receiver;
    }

    /// <summary>Waits until <paramref name="done"/> holds of the accepted events (polling).</summary>
    public async Task<IReadOnlyList<JsonElement>> WaitForAsync(Func<IReadOnlyList<JsonElement>, bool> done, TimeSpan? within = null)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        timeout.CancelAfter(within ?? TimeSpan.FromSeconds(30));
        while (!done(Accepted))
        {
            await Task.Delay(50, timeout.Token);
        }

        return Accepted;
    }

    public async ValueTask DisposeAsync()
    {
        Mode = Behaviour.Accept;
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
    }

    private async Task ReceiveAsync(HttpContext context)
    {
        using var reader = new StreamReader(context.Request.Body);
        var body = await reader.ReadToEndAsync(context.RequestAborted);
        var verified = true;
        try
        {
            _verifier.Verify(body, context.Request.Headers);
        }
        catch (StandardWebhooks.Diagnostics.WebhookVerificationException)
        {
            verified = false;
        }

        if (Answer is { } answer && verified)
        {
            Requests.Enqueue(new Delivery(context.Request.Headers["webhook-id"].ToString(), JsonDocument.Parse(body).RootElement.Clone(), verified, Accepted: false));
            await answer(context);
            return;
        }

        var mode = Mode;
        var accepted = verified && mode == Behaviour.Accept;
        Requests.Enqueue(new Delivery(context.Request.Headers["webhook-id"].ToString(), JsonDocument.Parse(body).RootElement.Clone(), verified, accepted));
        if (mode == Behaviour.Hang)
        {
            await Task.Delay(Timeout.Infinite, context.RequestAborted);
        }

        context.Response.StatusCode = accepted ? StatusCodes.Status204NoContent : verified ? StatusCodes.Status503ServiceUnavailable : StatusCodes.Status401Unauthorized;
    }

    public sealed record Delivery(string Id, JsonElement Event, bool Verified, bool Accepted);
}
