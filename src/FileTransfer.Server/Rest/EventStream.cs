using System.Text;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Server-Sent Events (HTML Living Standard, "Server-sent events") at <c>api/events</c>: the same
/// events and filters as gRPC <c>WatchEvents</c>, each as <c>id</c>, <c>event</c> (its type) and
/// <c>data</c> (its JSON, docs/events.md). A client that reconnects sends <c>Last-Event-ID</c> and
/// misses nothing still retained. A comment every 15 s keeps proxies from closing an idle stream.
/// </summary>
internal static class EventStream
{
    private static readonly TimeSpan Heartbeat = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Streams the events of names the caller may read, as <c>text/event-stream</c>, until the client
    /// leaves. <paramref name="prefix"/> narrows them to a folder, <paramref name="types"/> to some types
    /// (repeated, or comma-separated); <paramref name="after"/> or <c>Last-Event-ID</c> resumes after an
    /// event id, the retained events after it first.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="events">The events.</param>
    /// <param name="lifetime">Ends the stream when the server stops.</param>
    /// <param name="prefix">Only names that start with this (a folder ends in '/').</param>
    /// <param name="after">Resume after this event id (the header <c>Last-Event-ID</c> does the same).</param>
    /// <param name="types">Only these event types, e.g. <c>file.created,file.deleted</c>.</param>
    [Operation(FileOperation.Read)]
    [ProducesResponseType(StatusCodes.Status200OK)]
    [ProducesResponseType<ProblemDetails>(StatusCodes.Status400BadRequest, "application/problem+json")]
    public static async Task Watch(
        HttpContext context,
        [FromServices] FileEvents events,
        [FromServices] IHostApplicationLifetime lifetime,
        [FromQuery] string? prefix,
        [FromQuery] string? after,
        [FromQuery] string[]? types = null)
    {
        var (request, response) = (context.Request, context.Response);
        using var call = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, lifetime.ApplicationStopping);
        var resume = after ?? (request.Headers["Last-Event-ID"] is [{ Length: > 0 } lastId] ? lastId : null);
        var wanted = types?.SelectMany(t => t.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();
        var watched = new EventQuery(prefix, resume, wanted).Watch(events, Callers.Of(context), call.Token);

        response.ContentType = "text/event-stream; charset=utf-8";
        response.Headers.CacheControl = "no-store";
        response.Headers["X-Accel-Buffering"] = "no"; // nginx: pass each event on at once
        var body = response.BodyWriter;
        await body.WriteAsync(": watching\n\n"u8.ToArray(), call.Token);

        await using var next = watched.GetAsyncEnumerator(call.Token);
        using var heartbeat = new PeriodicTimer(Heartbeat);
        var moved = next.MoveNextAsync().AsTask();
        var tick = heartbeat.WaitForNextTickAsync(call.Token).AsTask();
        try
        {
            while (true)
            {
                if (await Task.WhenAny(moved, tick) == tick)
                {
                    await tick;
                    await body.WriteAsync(": keep-alive\n\n"u8.ToArray(), call.Token);
                    tick = heartbeat.WaitForNextTickAsync(call.Token).AsTask();
                    continue;
                }

                if (!await moved)
                {
                    return;
                }

                await body.WriteAsync(Frame(next.Current), call.Token);
                moved = next.MoveNextAsync().AsTask();
            }
        }
        catch (OperationCanceledException) when (call.IsCancellationRequested)
        {
            // The client left or the server stops; a client resumes with Last-Event-ID.
        }
        finally
        {
            // The enumerator may be disposed only once no MoveNextAsync is in flight (an async
            // iterator refuses with NotSupportedException, and its own finally, which unregisters the
            // watcher, would never run): a write that failed or a heartbeat that was cancelled leaves
            // one pending, which the cancelled token ends.
            await call.CancelAsync();
            await Ended(moved);
        }
    }

    private static async Task Ended(Task<bool> moved)
    {
        try
        {
            await moved;
        }
        catch (Exception)
        {
            // Cancelled above, or failed: the stream ends either way, and a failure the loop awaited has already gone up.
        }
    }

    // "id: ...\nevent: ...\ndata: {json}\n\n": the JSON is one line (no raw line breaks in it).
    private static byte[] Frame(Core.FileEvent e)
    {
        var text = new StringBuilder(512)
            .Append("id: ").Append(e.Id).Append('\n')
            .Append("event: ").Append(e.Type).Append('\n')
            .Append("data: ").Append(Encoding.UTF8.GetString(FileEventJson.ToUtf8(e))).Append("\n\n");
        return Encoding.UTF8.GetBytes(text.ToString());
    }
}
