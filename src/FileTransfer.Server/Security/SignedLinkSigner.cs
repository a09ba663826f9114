using System.Buffers.Text;
using System.Diagnostics.CodeAnalysis;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// Issues and checks signed links: <c>base64url(JSON) "." base64url(HMAC-SHA256)</c> (RFC 2104),
/// the MAC taken over a versioned label and the encoded JSON, so that no byte of what the link
/// grants can change without the server noticing.
/// </summary>
internal sealed class SignedLinkSigner
{
    private const string Label = "filetransfer-link-v1.";

    // Made on first use: the random key (and with it OpenSSL, about 4 MB resident) is not loaded
    // by a server that never signs or checks a link (docs/performance-notes.md, the idle floor).
    private readonly Lazy<byte[]> _key;
    private readonly TimeProvider _time;

    public SignedLinkSigner(IOptions<AuthOptions> options, TimeProvider time)
    {
        _time = time;
        var configured = options.Value.SigningKey;
        IsKeyGenerated = string.IsNullOrEmpty(configured);
        _key = IsKeyGenerated ? new(() => RandomNumberGenerator.GetBytes(32)) : new(Encoding.UTF8.GetBytes(configured!));
    }

    /// <summary>True when no <c>Auth:SigningKey</c> is set: links die with this process.</summary>
    public bool IsKeyGenerated { get; }

    public DateTimeOffset Now => _time.GetUtcNow();

    public string Sign(SignedLink link)
    {
        var payload = Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(link, SecurityJson.Default.SignedLink));
        return payload + "." + Base64Url.EncodeToString(Mac(payload));
    }

    /// <summary>The link <paramref name="token"/> carries, or why it is refused (safe to show to the client).</summary>
    public bool TryValidate(string token, [NotNullWhen(true)] out SignedLink? link, [NotNullWhen(false)] out string? error)
    {
        link = null;
        var dot = token.IndexOf('.', StringComparison.Ordinal);
        if (dot <= 0 || !TryDecode(token[(dot + 1)..], out var mac) || mac.Length != HMACSHA256.HashSizeInBytes)
        {
            error = "The signed link is malformed.";
            return false;
        }

        var payload = token[..dot];
        if (!CryptographicOperations.FixedTimeEquals(mac, Mac(payload)))
        {
            error = "The signed link's signature does not match: it was altered or signed by another server.";
            return false;
        }

        link = Parse(payload);
        if (link is null || link.Access is not (Scopes.Read or Scopes.Write) || string.IsNullOrEmpty(link.Path))
        {
            link = null;
            error = "The signed link is malformed.";
            return false;
        }

        if (Now >= link.Expires)
        {
            error = $"The signed link expired at {link.Expires:u}.";
            link = null;
            return false;
        }

        error = null;
        return true;
    }

    private byte[] Mac(string payload) => HMACSHA256.HashData(_key.Value, Encoding.ASCII.GetBytes(Label + payload));

    private static SignedLink? Parse(string payload)
    {
        try
        {
            return TryDecode(payload, out var json) ? JsonSerializer.Deserialize(json, SecurityJson.Default.SignedLink) : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static bool TryDecode(string text, out byte[] bytes)
    {
        if (!Base64Url.IsValid(text, out var length))
        {
            bytes = [];
            return false;
        }

        bytes = new byte[length];
        return Base64Url.TryDecodeFromChars(text, bytes, out _);
    }
}
