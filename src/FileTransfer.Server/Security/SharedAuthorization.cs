using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace FileTransfer.Server.Security;

/// <summary>
/// Authorization's services once per process instead of once per request. ASP.NET Core registers
/// the authorization service, its policy and handler providers, evaluator, context factory and the
/// middleware's policy evaluator as transient, so the authorization middleware built seven objects
/// (and a handler array) on every request, all stateless over singletons. With every registered
/// handler a singleton or stateless transient, nothing per request is lost by sharing them; a scoped
/// handler (one that could hold request state) keeps the framework's lifetimes. Decisions come from
/// the framework's service, except that a known key's grant of a policy is remembered
/// (<see cref="KnownKeyGrants"/>).
/// </summary>
internal static class SharedAuthorization
{
    private static readonly Type[] Stateless =
    [
        typeof(IAuthorizationService),
        typeof(IAuthorizationPolicyProvider),
        typeof(IAuthorizationHandlerProvider),
        typeof(IAuthorizationEvaluator),
        typeof(IAuthorizationHandlerContextFactory),
    ];

    /// <summary>Call after authorization is registered; leaves everything as it was if a handler is scoped.</summary>
    public static void Register(IServiceCollection services)
    {
        if (services.Any(d => d.ServiceType == typeof(IAuthorizationHandler) && d.Lifetime == ServiceLifetime.Scoped))
        {
            return;
        }

        foreach (var descriptor in services.Where(d => Stateless.Contains(d.ServiceType) && d is { Lifetime: ServiceLifetime.Transient, ImplementationType: not null }).ToList())
        {
            services.Remove(descriptor);
            services.Add(ServiceDescriptor.Singleton(descriptor.ServiceType, descriptor.ImplementationType!));
        }

        services.RemoveAll<IPolicyEvaluator>();
        services.AddSingleton<IPolicyEvaluator>(provider => new KnownKeyPolicyEvaluator(
            provider.GetRequiredService<IAuthorizationService>(),
            KnownKeyGrants.For(provider)));
    }

    /// <summary>The grants the shared policy evaluator remembers; null when they cannot be proven the same answer, or the evaluator was replaced.</summary>
    public static KnownKeyGrants? GrantsOf(IServiceProvider services) =>
        services.GetService<IPolicyEvaluator>() is KnownKeyPolicyEvaluator evaluator ? evaluator.Grants : null;

    /// <summary>
    /// The key this request was authenticated with, when the user authorization judges is that key's
    /// shared principal (a policy with schemes of its own could have replaced it).
    /// </summary>
    public static ApiKeyEntry? KeyOf(HttpContext context) =>
        context.Features.Get<IAuthenticateResultFeature>() is ApiKeyEntry entry && ReferenceEquals(context.User, entry.Principal)
            ? entry
            : null;

    /// <summary>
    /// <see cref="PolicyEvaluator"/> that answers without a new task where the answer is already known:
    /// a request <see cref="KnownKeyAuthentication"/> authenticated gets its key's result (the same
    /// completed task every time), a policy its key was granted before is granted again without the
    /// authorization service (<c>grants</c>, null when that cannot be proven the same
    /// answer), and a granted policy is the one success. Everything else is the framework's own code
    /// path, refusals included.
    /// </summary>
    private sealed class KnownKeyPolicyEvaluator(IAuthorizationService authorization, KnownKeyGrants? grants) : PolicyEvaluator(authorization)
    {
        private static readonly Task<PolicyAuthorizationResult> Granted = Task.FromResult(PolicyAuthorizationResult.Success());

        private readonly IAuthorizationService _authorization = authorization;

        public KnownKeyGrants? Grants => grants;

        public override Task<AuthenticateResult> AuthenticateAsync(AuthorizationPolicy policy, HttpContext context) =>
            policy.AuthenticationSchemes.Count == 0 && context.Features.Get<IAuthenticateResultFeature>() is ApiKeyEntry entry
                ? entry.Result
                : base.AuthenticateAsync(policy, context);

        // PolicyEvaluator.AuthorizeAsync's rule, with the granted answer not allocated. A failed
        // authentication goes to the framework's code (it may forbid without a challenge).
        public override Task<PolicyAuthorizationResult> AuthorizeAsync(AuthorizationPolicy policy, AuthenticateResult authenticationResult, HttpContext context, object? resource)
        {
            if (authenticationResult.Failure is not null)
            {
                return base.AuthorizeAsync(policy, authenticationResult, context, resource);
            }

            var key = grants is null ? null : KeyOf(context);
            if (key is not null && grants!.IsGranted(key, policy))
            {
                return Granted;
            }

            var decided = _authorization.AuthorizeAsync(context.User, resource, policy);
            if (decided.IsCompletedSuccessfully && decided.Result.Succeeded)
            {
                if (key is not null)
                {
                    grants!.Remember(key, policy);
                }

                return Granted;
            }

            return AnswerAsync(decided, authenticationResult);
        }

        private static async Task<PolicyAuthorizationResult> AnswerAsync(Task<AuthorizationResult> decided, AuthenticateResult authenticationResult)
        {
            var result = await decided;
            return result.Succeeded ? PolicyAuthorizationResult.Success()
                : authenticationResult.Succeeded ? PolicyAuthorizationResult.Forbid(result.Failure)
                : PolicyAuthorizationResult.Challenge();
        }
    }
}
