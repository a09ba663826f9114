using System.Buffers.Text;
using System.Text;
using System.Text.Json;

namespace FileTransfer.Core;

/// <summary>
/// Where a listing resumes: the prefix it was issued for and a cursor, the last name (or completed
/// folder, ending in '/') the backend had finished. Opaque to clients (base64url JSON). A token only
/// sets a lower bound on names already filtered by prefix and name rules, so a forged one cannot
/// reach files the listing would not show; it is still refused unless it was issued for the same
/// prefix (AIP-158: the same request, asking for its next page).
/// </summary>
public static class PageToken
{
    /// <summary>Longest token accepted: a cursor is one name, at most 1 KiB of UTF-8.</summary>
    private const int MaxTokenLength = 4096;

    public static string Encode(string prefix, string cursor) =>
        Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(new Payload(prefix, cursor), CoreJson.Default.Payload));

    /// <summary>The cursor, or throws the <see cref="FileTransferException"/> (<see cref="ErrorReason.InvalidPageRequest"/>) that refuses the token.</summary>
    public static string Decode(string token, string prefix)
    {
        Payload? payload = null;
        try
        {
            if (token.Length <= MaxTokenLength && Base64Url.IsValid(token))
            {
                payload = JsonSerializer.Deserialize(Base64Url.DecodeFromChars(token), CoreJson.Default.Payload);
            }
        }
        catch (Exception ex) when (ex is JsonException or FormatException or DecoderFallbackException)
        {
            payload = null;
        }

        if (payload?.P is null || payload.C is null)
        {
            throw Failures.InvalidPage("The page token is not one this server issued.");
        }

        if (payload.P != prefix)
        {
            throw Failures.InvalidPage("The page token was issued for another prefix; list again from the first page.");
        }

        return payload.C;
    }

    internal sealed record Payload(string? P, string? C);
}
