using System.Text;
using System.Text.Json;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// The hooks that can refuse an upload (docs/events.md): <c>Hooks:PreUpload</c> before any upload is
/// accepted, <c>Hooks:PreCommit</c> after every byte is verified and before the file becomes visible.
/// Each is a signed POST of the upload as an event would describe it; a 2xx accepts, any other
/// answer refuses (<see cref="ErrorReason.UploadRejected"/>, with the hook's message), and no answer
/// within the hook's time refuses too (<see cref="ErrorReason.HookUnavailable"/>: fail closed).
/// </summary>
public sealed partial class UploadHooks(IOptions<HooksOptions> options, IOptions<EventsOptions> events, TimeProvider time, ILogger<UploadHooks> logger)
{
    /// <summary>Most bytes of a refusing hook's answer read for its message; the rest is never read.</summary>
    internal const int MaxMessageBytes = 4096;

    /// <summary>Most characters of the hook's message passed on to the client.</summary>
    internal const int MaxMessageLength = 1000;

    private readonly HooksOptions _options = options.Value;

    public bool HasPreUpload => _options.PreUpload.IsSet;

    public bool HasPreCommit => _options.PreCommit.IsSet;

    /// <summary>Asks the pre-upload hook about an upload of <paramref name="name"/>; throws its refusal.</summary>
    public Task BeforeUploadAsync(string name, long? declaredLength, ChangeOrigin origin, string? uploadId, CancellationToken cancellationToken) =>
        AskAsync(_options.PreUpload, "PreUpload", FileEvent.Draft(FileEventTypes.PreUpload, name, origin) with { Size = declaredLength, UploadId = uploadId }, cancellationToken);

    /// <summary>Asks the pre-commit hook about verified bytes of <paramref name="name"/>; throws its refusal.</summary>
    public Task BeforeCommitAsync(string name, long size, byte[] sha256, ChangeOrigin origin, string? uploadId, CancellationToken cancellationToken) =>
        AskAsync(_options.PreCommit, "PreCommit", FileEvent.Draft(FileEventTypes.PreCommit, name, origin) with { Size = size, Sha256 = sha256, UploadId = uploadId }, cancellationToken);

    private async Task AskAsync(HookOptions hook, string which, FileEvent about, CancellationToken cancellationToken)
    {
        if (!hook.IsSet)
        {
            return;
        }

        var id = "hook_" + Guid.NewGuid().ToString("N");
        var body = FileEventJson.ToUtf8(about with { Id = id, Time = time.GetUtcNow(), Replica = events.Value.ReplicaName });
        using var request = SignedRequests.Post(hook.Url!, WebhookSignature.KeyOf(hook.Secret)!, id, body, time);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromMilliseconds(hook.TimeoutMs));
        try
        {
            using var response = await SignedRequests.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
            if (response.IsSuccessStatusCode)
            {
                return; // its body, however large, is never read
            }

            var message = await MessageAsync(response, timeout.Token);
            LogRefused(logger, which, about.Name, (int)response.StatusCode);
            throw new FileTransferException(ErrorReason.UploadRejected, message ?? $"The {which} hook refused the upload (HTTP {(int)response.StatusCode}).");
        }
        catch (Exception ex) when (ex is HttpRequestException or IOException || (ex is OperationCanceledException && !cancellationToken.IsCancellationRequested))
        {
            LogUnavailable(logger, which, ex);
            throw new FileTransferException(ErrorReason.HookUnavailable, $"The {which} hook did not answer within {hook.TimeoutMs} ms; nothing was stored. Try again later.", ex);
        }
    }

    // The first MaxMessageBytes of the answer: its "message" member when it is JSON with one, else its
    // text; control characters removed, cut to MaxMessageLength. Null when there is none.
    private static async Task<string?> MessageAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        await using var stream = await response.Content.ReadAsStreamAsync(cancellationToken);
        var buffer = new byte[MaxMessageBytes];
        var read = await stream.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken);
        var text = Encoding.UTF8.GetString(buffer, 0, read);
        if (response.Content.Headers.ContentType?.MediaType?.Contains("json", StringComparison.OrdinalIgnoreCase) == true)
        {
            try
            {
                using var json = JsonDocument.Parse(text);
                if (json.RootElement.ValueKind == JsonValueKind.Object && json.RootElement.TryGetProperty("message", out var member) && member.ValueKind == JsonValueKind.String)
                {
                    text = member.GetString()!;
                }
            }
            catch (JsonException)
            {
                // Not JSON after all (or cut): its text is the message.
            }
        }

        var clean = new string([.. text.Where(c => !char.IsControl(c) || c == ' ')]).Trim();
        return clean.Length == 0 ? null : clean.Length > MaxMessageLength ? clean[..MaxMessageLength] : clean;
    }

    [LoggerMessage(EventId = 307, Level = LogLevel.Information, Message = "The {Hook} hook refused an upload of {Name} (HTTP {Status})")]
    private static partial void LogRefused(ILogger logger, string hook, string name, int status);

    [LoggerMessage(EventId = 308, Level = LogLevel.Warning, Message = "The {Hook} hook did not answer; the upload was refused")]
    private static partial void LogUnavailable(ILogger logger, string hook, Exception exception);
}
