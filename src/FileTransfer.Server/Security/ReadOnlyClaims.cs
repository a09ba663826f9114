using System.Security.Claims;
using System.Security.Principal;
using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// A claims identity whose claims are fixed at construction: <see cref="ApiKeyStore"/> shares one
/// per key between all requests, so adding or removing a claim would change what every later
/// request with that key is granted. Every mutator throws instead.
/// </summary>
internal sealed class ReadOnlyClaimsIdentity(IEnumerable<Claim> claims, string authenticationType, string nameType, string roleType)
    : ClaimsIdentity(claims, authenticationType, nameType, roleType)
{
    public override void AddClaim(Claim claim) => throw Shared();

    public override void AddClaims(IEnumerable<Claim?> claims) => throw Shared();

    public override void RemoveClaim(Claim? claim) => throw Shared();

    public override bool TryRemoveClaim(Claim? claim) => throw Shared();

    internal static InvalidOperationException Shared() =>
        new("This identity is shared by every request with the same API key and cannot be changed; Clone() it first.");
}

/// <summary>
/// The principal around a <see cref="ReadOnlyClaimsIdentity"/>, with the key's <see cref="Caller"/>
/// (also built once): no identity can be added to it either.
/// </summary>
internal sealed class ReadOnlyClaimsPrincipal(IIdentity identity, Caller caller) : ClaimsPrincipal(identity), ICallerPrincipal
{
    public Caller Caller { get; } = caller;

    public override void AddIdentity(ClaimsIdentity identity) => throw ReadOnlyClaimsIdentity.Shared();

    public override void AddIdentities(IEnumerable<ClaimsIdentity> identities) => throw ReadOnlyClaimsIdentity.Shared();
}
