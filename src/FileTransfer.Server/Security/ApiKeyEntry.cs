using System.Security.Claims;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Http.Features.Authentication;

namespace FileTransfer.Server.Security;

/// <summary>
/// One configured key, and everything a request that presents it is handed: built once, shared by
/// every such request (<see cref="ApiKeyStore"/>).
/// </summary>
internal sealed class ApiKeyEntry : IHttpAuthenticationFeature, IAuthenticateResultFeature
{
    private readonly AuthenticateResult _result;

    public ApiKeyEntry(byte[] hash, ReadOnlyClaimsPrincipal principal, AuthenticateResult result)
    {
        Hash = hash;
        Principal = principal;
        _result = result;
        Result = Task.FromResult(result);
    }

    /// <summary>SHA-256 of the key.</summary>
    public byte[] Hash { get; }

    public ReadOnlyClaimsPrincipal Principal { get; }

    /// <summary>The scheme's answer for this key, as a completed task (the same instance every time).</summary>
    public Task<AuthenticateResult> Result { get; }

    // The entry is the request's authentication features (what UseAuthentication would allocate per
    // request): shared, so a setter accepts only what it already holds, as the read-only principal
    // refuses changes. The authorization middleware sets the result it read from here back.
    ClaimsPrincipal? IHttpAuthenticationFeature.User
    {
        get => Principal;
        set => Refuse(value, Principal);
    }

    AuthenticateResult? IAuthenticateResultFeature.AuthenticateResult
    {
        get => _result;
        set => Refuse(value, _result);
    }

    private static void Refuse(object? value, object held)
    {
        if (!ReferenceEquals(value, held))
        {
            throw ReadOnlyClaimsIdentity.Shared();
        }
    }
}
