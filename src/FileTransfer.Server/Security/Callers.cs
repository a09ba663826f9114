using System.Security.Claims;
using System.Security.Principal;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// The caller of a request in the core's terms (<see cref="Caller"/>), for every protocol alike:
/// what authentication put on the principal (an API key's, built once per key; a token's or a
/// signed link's, built per request), or, for a request that presented no credential, nobody
/// (who may read when <c>Auth:AllowAnonymousRead</c> is on).
/// </summary>
internal static class Callers
{
    private static readonly Caller AnonymousReader = Caller.Anonymous(mayRead: true);
    private static readonly Caller Nobody = Caller.Anonymous(mayRead: false);

    public static Caller Of(HttpContext context) =>
        context.User is ICallerPrincipal principal ? principal.Caller
        : context.RequestServices.GetRequiredService<IOptions<AuthOptions>>().Value.AllowAnonymousRead ? AnonymousReader
        : Nobody;

    /// <summary>The caller of a principal as authentication built it, or null for an anonymous one.</summary>
    public static Caller? Of(ClaimsPrincipal user) => (user as ICallerPrincipal)?.Caller;
}

/// <summary>A principal that carries the core's <see cref="Caller"/> beside its claims.</summary>
internal interface ICallerPrincipal
{
    Caller Caller { get; }
}

/// <summary>The principal of a token or a signed link: built per request, with its caller.</summary>
internal sealed class CallerPrincipal(IIdentity identity, Caller caller) : ClaimsPrincipal(identity), ICallerPrincipal
{
    public Caller Caller { get; } = caller;
}
