using System.Globalization;
using System.Security.Claims;
using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// What a caller's grant adds to an upload: a signed write link's size cap and SHA-256, read from
/// the claims authentication put on the principal. Protocol-neutral, so that every adapter that
/// builds an <see cref="UploadRequest"/> narrows it by the same rule.
/// </summary>
internal static class UploadGrant
{
    public const string DigestConflict = "The announced digest differs from the one the signed link allows.";

    /// <summary>
    /// <paramref name="request"/> narrowed by the grant; throws (<see cref="ErrorReason.InvalidUploadStream"/>)
    /// when the digest the client announced contradicts the one the link fixes.
    /// </summary>
    public static UploadRequest Apply(ClaimsPrincipal caller, UploadRequest request)
    {
        var expected = request.ExpectedSha256;
        if (caller.FindFirst(FileTransferClaims.UploadSha256)?.Value is { } granted)
        {
            var grantedBytes = Convert.FromHexString(granted);
            if (expected is not null && !expected.AsSpan().SequenceEqual(grantedBytes))
            {
                throw new FileTransferException(ErrorReason.InvalidUploadStream, DigestConflict);
            }

            expected = grantedBytes;
        }

        return request with
        {
            ExpectedSha256 = expected,
            MaxBytes = caller.FindFirst(FileTransferClaims.MaxUploadBytes)?.Value is { } max ? long.Parse(max, CultureInfo.InvariantCulture) : request.MaxBytes,
        };
    }
}
