using System.Globalization;
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
        var status = ((int)response.StatusCode).ToString(CultureInfo.InvariantCulture);
        var kind = ServerReasons.KindOf(problem.Reason) ?? KindOf(response.StatusCode, mustNotExist);
        var message = kind == FileTransferErrorKind.ServerError && problem.Reason is null
            ? $"The server answered {status} {response.ReasonPhrase}: {detail}"
            : ServerReasons.Describe(kind, name, status, detail);
        throw new FileTransferException(kind, message, status, problem.Detail ?? problem.Title)
        {
            Reason = problem.Reason,
            RetryAfter = response.Headers.RetryAfter?.Delta,
        };
    }

    /// <summary>
    /// The kind of a response without a reason (a HEAD has no body; a proxy answers without one): the
    /// kind of the reason the server sends with that status, where one status has one meaning.
    /// </summary>
    private static FileTransferErrorKind KindOf(HttpStatusCode status, bool mustNotExist) => (int)status switch
    {
        400 => FileTransferErrorKind.InvalidRequest,
        401 => FileTransferErrorKind.Unauthenticated,
        403 => FileTransferErrorKind.PermissionDenied,
        404 => FileTransferErrorKind.NotFound,
        408 => FileTransferErrorKind.ConnectionLost,
        409 => FileTransferErrorKind.Conflict,
        410 => FileTransferErrorKind.UploadExpired,
        412 when mustNotExist => FileTransferErrorKind.AlreadyExists,
        412 => FileTransferErrorKind.PreconditionFailed,
        413 => FileTransferErrorKind.TooLarge,
        416 => FileTransferErrorKind.RangeNotSatisfiable,
        429 => FileTransferErrorKind.RateLimited,
        460 => FileTransferErrorKind.DigestMismatch,
        503 => FileTransferErrorKind.ServiceUnavailable,
        507 => FileTransferErrorKind.InsufficientStorage,
        _ => FileTransferErrorKind.ServerError,
    };

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
                return new Problem(Text(root, "title"), Text(root, "detail"), Text(root, "reason"));
            }
            catch (JsonException)
            {
                // Not the JSON it claimed to be: fall through to the raw text.
            }
        }

        var text = body.Trim();
        return new Problem(null, text.Length == 0 ? null : text[..Math.Min(text.Length, 300)], null);
    }

    private static string? Text(JsonElement root, string property) =>
        root.ValueKind == JsonValueKind.Object && root.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()
            : null;

    private sealed record Problem(string? Title, string? Detail, string? Reason);
}
