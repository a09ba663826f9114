using System.Net;
using System.Text.Json;

namespace FileTransfer.Cli.Http;

/// <summary>Turns an error response into the message and exit code the user and scripts see.</summary>
internal static class ResponseErrors
{
    public static async Task EnsureSuccessAsync(HttpResponseMessage response, string name, CancellationToken cancellationToken)
    {
        if (response.IsSuccessStatusCode)
        {
            return;
        }

        var problem = await ReadProblemAsync(response, cancellationToken);
        var detail = problem.Detail ?? problem.Title ?? response.ReasonPhrase ?? "no details";
        var status = (int)response.StatusCode;
        throw response.StatusCode switch
        {
            HttpStatusCode.BadRequest when problem.MentionsDigest => new CliException(ExitCodes.DigestMismatch,
                $"The server refused the upload of '{name}' because its SHA-256 does not match what was sent (400): {detail}"),
            HttpStatusCode.BadRequest => new CliException(ExitCodes.Usage, $"The server refused the request for '{name}' (400): {detail}"),
            HttpStatusCode.Unauthorized => new CliException(ExitCodes.Unauthorized,
                $"Not authorized (401): {detail} Pass --api-key KEY, set ${GlobalOptions.ApiKeyVariable}, or use a valid signed link."),
            HttpStatusCode.Forbidden => new CliException(ExitCodes.Unauthorized, $"Forbidden (403): {detail}"),
            HttpStatusCode.NotFound => new CliException(ExitCodes.NotFound, $"Not found (404): {detail}"),
            HttpStatusCode.RequestEntityTooLarge => new CliException(ExitCodes.TooLarge, $"Too large (413): {detail}"),
            HttpStatusCode.InsufficientStorage => new CliException(ExitCodes.TooLarge, $"The server is out of space (507): {detail}"),
            HttpStatusCode.TooManyRequests => new CliException(ExitCodes.Other, $"Rate limited (429): {detail}{RetryHint(response)}"),
            HttpStatusCode.Conflict or HttpStatusCode.PreconditionFailed or HttpStatusCode.RequestedRangeNotSatisfiable =>
                new CliException(ExitCodes.Conflict, $"Precondition failed for '{name}' ({status}): {detail}"),
            _ => new CliException(ExitCodes.Other, $"The server answered {status} {response.ReasonPhrase}: {detail}"),
        };
    }

    private static string RetryHint(HttpResponseMessage response) =>
        response.Headers.RetryAfter?.Delta is { } delta ? $" Retry after {Math.Ceiling(delta.TotalSeconds)} s." : string.Empty;

    /// <summary>RFC 9457 problem details when the server sent them; a short plain-text body otherwise.</summary>
    private static async Task<Problem> ReadProblemAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        var body = await response.Content.ReadAsStringAsync(cancellationToken);
        var mediaType = response.Content.Headers.ContentType?.MediaType;
        if (mediaType is "application/problem+json" or "application/json" && body.Length > 0)
        {
            try
            {
                using var json = JsonDocument.Parse(body);
                var root = json.RootElement;
                return new Problem(Text(root, "type"), Text(root, "title"), Text(root, "detail"));
            }
            catch (JsonException)
            {
                // Not the JSON it claimed to be: fall through to the raw text.
            }
        }

        var text = body.Trim();
        return new Problem(null, null, text.Length == 0 ? null : text[..Math.Min(text.Length, 300)]);
    }

    private static string? Text(JsonElement root, string property) =>
        root.ValueKind == JsonValueKind.Object && root.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()
            : null;

    private sealed record Problem(string? Type, string? Title, string? Detail)
    {
        public bool MentionsDigest =>
            $"{Type} {Title} {Detail}".Contains("digest", StringComparison.OrdinalIgnoreCase);
    }
}
