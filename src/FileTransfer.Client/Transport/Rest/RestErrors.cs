using System.Net;
using System.Text.Json;

namespace FileTransfer.Client.Transport.Rest;

/// <summary>Turns an error response, or a failure to get one, into a <see cref="FileTransferException"/>.</summary>
internal static class RestErrors
{
    public static async Task EnsureSuccessAsync(HttpResponseMessage response, string name, bool mustNotExist, CancellationToken cancellationToken)
    {
        if (response.IsSuccessStatusCode)
        {
            return;
        }

        var problem = await ReadProblemAsync(response, cancellationToken);
        var detail = problem.Detail ?? problem.Title ?? response.ReasonPhrase ?? "no details";
        var status = ((int)response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture);
        var (kind, message) = response.StatusCode switch
        {
            HttpStatusCode.BadRequest when problem.MentionsDigest => (FileTransferErrorKind.DigestMismatch,
                $"The server refused the upload of '{name}' because its SHA-256 does not match what was sent (400): {detail}"),
            HttpStatusCode.BadRequest => (FileTransferErrorKind.InvalidRequest, $"The server refused the request for '{name}' (400): {detail}"),
            HttpStatusCode.Unauthorized => (FileTransferErrorKind.Unauthenticated, $"Not authorized (401): {detail}"),
            HttpStatusCode.Forbidden => (FileTransferErrorKind.PermissionDenied, $"Forbidden (403): {detail}"),
            HttpStatusCode.NotFound => (FileTransferErrorKind.NotFound, $"Not found (404): {detail}"),
            HttpStatusCode.RequestEntityTooLarge => (FileTransferErrorKind.TooLarge, $"Too large (413): {detail}"),
            HttpStatusCode.InsufficientStorage => (FileTransferErrorKind.InsufficientStorage, $"The server is out of space (507): {detail}"),
            HttpStatusCode.TooManyRequests => (FileTransferErrorKind.RateLimited, $"Rate limited (429): {detail}"),
            HttpStatusCode.PreconditionFailed when mustNotExist => (FileTransferErrorKind.AlreadyExists, $"'{name}' already exists (412): {detail}"),
            HttpStatusCode.PreconditionFailed => (FileTransferErrorKind.PreconditionFailed, $"Precondition failed for '{name}' (412): {detail}"),
            HttpStatusCode.Conflict => (FileTransferErrorKind.Conflict, $"Conflict for '{name}' (409): {detail}"),
            HttpStatusCode.RequestedRangeNotSatisfiable => (FileTransferErrorKind.RangeNotSatisfiable, $"Range not satisfiable for '{name}' (416): {detail}"),
            _ => (FileTransferErrorKind.ServerError, $"The server answered {status} {response.ReasonPhrase}: {detail}"),
        };
        throw new FileTransferException(kind, message, status, problem.Detail ?? problem.Title)
        {
            RetryAfter = response.Headers.RetryAfter?.Delta,
        };
    }

    /// <summary>A request that got no response: the server is unreachable or the connection broke.</summary>
    public static FileTransferException Unreachable(Uri url, Exception e) =>
        new(FileTransferErrorKind.ConnectionLost, e is HttpRequestException
            ? $"Cannot reach {url.GetLeftPart(UriPartial.Authority)}: {HttpHandlers.Innermost(e).Message}"
            : $"The connection to {url.GetLeftPart(UriPartial.Authority)} was lost: {e.Message}", innerException: e);

    /// <summary>RFC 9457 problem details when the server sent them; a short plain-text body otherwise.</summary>
    private static async Task<Problem> ReadProblemAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        string body;
        try
        {
            body = await response.Content.ReadAsStringAsync(cancellationToken);
        }
        catch (Exception e) when (HttpHandlers.IsConnectionFailure(e))
        {
            body = string.Empty;
        }

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
