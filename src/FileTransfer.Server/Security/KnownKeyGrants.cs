using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Security.Claims;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Infrastructure;

namespace FileTransfer.Server.Security;

/// <summary>
/// The policies each configured API key was granted, so that the key's later requests to the same
/// endpoints skip the authorization service (its handler context, handler array, handlers,
/// evaluator and log line). A key's entry never changes while the process runs
/// (<see cref="ApiKeyStore"/>), and a policy made only of <see cref="ScopeRequirement"/> and
/// <see cref="DenyAnonymousAuthorizationRequirement"/>, judged by our handler and the framework's
/// pass-through, depends on nothing but the caller: the same key and policy get the same answer
/// every time. Only grants are remembered; a refusal goes through the framework each time, with its
/// reason.
/// </summary>
/// <remarks>
/// A remembered grant is still counted in <c>aspnetcore.authorization.attempts</c>, on the
/// framework's own meter and instrument with the framework's tags: docs/observability.md lists the
/// authorization series among what <c>/metrics</c> carries, and a counter that missed most granted
/// requests would mislead whoever reads it.
/// </remarks>
internal sealed class KnownKeyGrants
{
    /// <summary>
    /// At most this many (key, policy) pairs are remembered. Policies are one per endpoint (the
    /// authorization middleware caches them) and keys are the configured ones, so the real number is
    /// small; the cap holds should endpoints ever be rebuilt while the process runs.
    /// </summary>
    internal const int Capacity = 4096;

    // AuthorizationMetrics in ASP.NET Core (src/Security/Authorization/Core/src/AuthorizationMetrics.cs):
    // IMeterFactory hands back the framework's meter for the same name, and the meter its counter for
    // the same name, unit and description, so both paths add to one series.
    private const string MeterName = "Microsoft.AspNetCore.Authorization";
    private static readonly object BoxedTrue = true;
    private static readonly object BoxedFalse = false;

    private readonly ConcurrentDictionary<(ApiKeyEntry Key, AuthorizationPolicy Policy), bool> _granted = new();
    private readonly ConcurrentDictionary<(ApiKeyEntry Key, Endpoint Endpoint), bool> _grantedAt = new();
    private readonly Counter<long> _attempts;
    private int _count;

    private KnownKeyGrants(IMeterFactory meters) =>
        _attempts = meters.Create(MeterName).CreateCounter<long>(
            "aspnetcore.authorization.attempts",
            unit: "{attempt}",
            description: "The total number of authorization attempts.");

    /// <summary>
    /// The memo, or null when something registered could decide a policy otherwise than by the
    /// caller alone: a handler other than ours and the framework's pass-through (it might read the
    /// resource, the time, a database), an authorization service, handler provider, evaluator or
    /// context factory that is not the framework's own, or a policy provider whose policies the
    /// middleware does not cache (a new policy each request would make every grant a new entry).
    /// </summary>
    public static KnownKeyGrants? For(IServiceProvider services)
    {
        var handlersAreOurs = services.GetServices<IAuthorizationHandler>()
            .All(handler => handler is ScopeAuthorizationHandler || handler.GetType() == typeof(PassThroughAuthorizationHandler));
        var frameworkDecides = IsFramework(services.GetRequiredService<IAuthorizationService>())
            && IsFramework(services.GetRequiredService<IAuthorizationHandlerProvider>())
            && IsFramework(services.GetRequiredService<IAuthorizationEvaluator>())
            && IsFramework(services.GetRequiredService<IAuthorizationHandlerContextFactory>());
        var policiesCached = services.GetRequiredService<IAuthorizationPolicyProvider>().AllowsCachingPolicies;
        return handlersAreOurs && frameworkDecides && policiesCached
            ? new KnownKeyGrants(services.GetRequiredService<IMeterFactory>())
            : null;
    }

    /// <summary>Whether <paramref name="key"/> was granted <paramref name="policy"/> before; counts the attempt when it was.</summary>
    public bool IsGranted(ApiKeyEntry key, AuthorizationPolicy policy)
    {
        if (!_granted.ContainsKey((key, policy)))
        {
            return false;
        }

        CountAttempt(key.Principal);
        return true;
    }

    /// <summary>Remembers that the framework granted <paramref name="policy"/> to <paramref name="key"/>, if the policy depends on the caller alone.</summary>
    public void Remember(ApiKeyEntry key, AuthorizationPolicy policy)
    {
        if (Volatile.Read(ref _count) < Capacity && DependsOnCallerAlone(policy) && _granted.TryAdd((key, policy), true))
        {
            Interlocked.Increment(ref _count);
        }
    }

    /// <summary>
    /// Whether <paramref name="key"/> was granted <paramref name="endpoint"/>'s policy by the authorization
    /// middleware before (<see cref="RememberAt"/>); counts the attempt when it was.
    /// </summary>
    public bool IsGrantedAt(ApiKeyEntry key, Endpoint endpoint)
    {
        if (!_grantedAt.ContainsKey((key, endpoint)))
        {
            return false;
        }

        CountAttempt(key.Principal);
        return true;
    }

    /// <summary>
    /// Remembers that the authorization middleware granted <paramref name="key"/> the policy of
    /// <paramref name="endpoint"/>, <paramref name="policy"/>, if it depends on the caller alone. Only
    /// the middleware's result handler may call it: it alone is handed the endpoint's own policy, which
    /// the middleware computes once per endpoint and keeps (its policies are cached, <see cref="For"/>).
    /// </summary>
    public void RememberAt(ApiKeyEntry key, AuthorizationPolicy policy, Endpoint endpoint)
    {
        if (Volatile.Read(ref _count) < Capacity && DependsOnCallerAlone(policy) && _grantedAt.TryAdd((key, endpoint), true))
        {
            Interlocked.Increment(ref _count);
        }
    }

    // The requirements whose only judges are ScopeAuthorizationHandler (which, for an authenticated
    // caller, reads the caller's scopes and nothing else) and DenyAnonymousAuthorizationRequirement
    // itself, through the pass-through handler (is the caller authenticated).
    private static bool DependsOnCallerAlone(AuthorizationPolicy policy)
    {
        var requirements = policy.Requirements;
        for (var i = 0; i < requirements.Count; i++)
        {
            if (requirements[i] is not (ScopeRequirement or DenyAnonymousAuthorizationRequirement))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsFramework(object service) => service.GetType().Assembly == typeof(IAuthorizationService).Assembly;

    // The framework's tags for AuthorizeAsync(user, resource, policy): whether the user is
    // authenticated, and the result; no policy name (the policy is passed, not named).
    private void CountAttempt(ClaimsPrincipal user)
    {
        if (_attempts.Enabled)
        {
            var tags = new TagList
            {
                { "aspnetcore.user.is_authenticated", user.Identity?.IsAuthenticated == true ? BoxedTrue : BoxedFalse },
                { "aspnetcore.authorization.result", "success" },
            };
            _attempts.Add(1, tags);
        }
    }
}
