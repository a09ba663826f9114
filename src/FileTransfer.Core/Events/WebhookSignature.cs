using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace FileTransfer.Core;

/// <summary>
/// The Standard Webhooks signature (standardwebhooks.com, "Verifying webhook authenticity"): the
/// headers <c>webhook-id</c>, <c>webhook-timestamp</c> (Unix seconds) and <c>webhook-signature</c>,
/// <c>v1,</c> and the base64 HMAC-SHA256 of <c>id.timestamp.body</c> under the secret's bytes. A
/// secret is <c>whsec_</c> and base64, as the reference libraries take it.
/// </summary>
public static class WebhookSignature
{
    public const string IdHeader = "webhook-id";
    public const string TimestampHeader = "webhook-timestamp";
    public const string SignatureHeader = "webhook-signature";
    public const string SecretPrefix = "whsec_";

    /// <summary>The key bytes of a <c>whsec_</c> secret, or null when it is not one (at least 24 bytes, as the spec recommends).</summary>
    public static byte[]? KeyOf(string? secret)
    {
        if (secret is null || !secret.StartsWith(SecretPrefix, StringComparison.Ordinal))
        {
            return null;
        }

        var key = new byte[secret.Length];
        return Convert.TryFromBase64String(secret[SecretPrefix.Length..], key, out var written) && written >= 24 ? key[..written] : null;
    }

    /// <summary>The <c>webhook-signature</c> value for <paramref name="body"/>.</summary>
    public static string Sign(byte[] key, string id, long timestamp, ReadOnlySpan<byte> body)
    {
        var prefix = Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{id}.{timestamp}."));
        using var hmac = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, key);
        hmac.AppendData(prefix);
        hmac.AppendData(body);
        return "v1," + Convert.ToBase64String(hmac.GetHashAndReset());
    }
}
