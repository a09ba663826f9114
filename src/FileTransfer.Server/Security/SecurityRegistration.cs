using FileTransfer.Core;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>Registers and wires authentication, authorization, signed links and limits.</summary>
internal static class SecurityRegistration
{
    public static WebApplicationBuilder AddFileTransferSecurity(this WebApplicationBuilder builder)
    {
        var services = builder.Services;

        // Keys and signed-link tokens never reach a log line, whoever writes it.
        RedactingLoggerFactory.Register(services);

        services.AddOptions<AuthOptions>().BindConfiguration(AuthOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<AuthOptions>, AuthOptionsAttributes>();
        services.AddSingleton<IValidateOptions<AuthOptions>, AuthOptionsValidator>();
        services.AddOptions<RateLimitOptions>().BindConfiguration(RateLimitOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<RateLimitOptions>, RateLimitOptionsAttributes>();

        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<ApiKeyStore>();
        services.AddSingleton<SignedLinkSigner>();

        services.AddAuthentication(FileTransferAuthenticationHandler.SchemeName)
            .AddScheme<AuthenticationSchemeOptions, FileTransferAuthenticationHandler>(FileTransferAuthenticationHandler.SchemeName, configureOptions: null)
            .AddJwtBearer(JwtCallers.SchemeName, _ => { });
        services.AddOptions<JwtBearerOptions>(JwtCallers.SchemeName)
            .Configure<IOptions<AuthOptions>>((bearer, auth) => JwtCallers.Configure(bearer, auth.Value.Jwt));
        var policies = services.AddAuthorizationBuilder();
        // One policy per scope (what an undeclared endpoint needs, every one), and one per operation.
        foreach (var scopes in Scopes.All.Select(scope => (IReadOnlyList<string>)[scope]).Concat(Enum.GetValues<FileOperation>().Select(OperationScopes.AnyOf)).DistinctBy(scopes => string.Join('|', scopes)))
        {
            policies.AddPolicy(string.Join('|', scopes), policy => policy.AddRequirements(new ScopeRequirement(scopes)));
        }

        services.AddSingleton<IAuthorizationHandler, ScopeAuthorizationHandler>();
        services.AddSingleton<IAuthorizationMiddlewareResultHandler, ProblemAuthorizationResultHandler>();
        SharedAuthorization.Register(services);

        // A service, so that the host disposes it (and its sweeper's timer).
        services.AddSingleton<ClientRateLimiter>();
        services.AddSingleton<RateLimitingSeries>();
        return builder;
    }

    // The keys UseAuthentication and UseAuthorization set on the builder and WebApplication checks before adding its own.
    internal const string AuthenticationMiddlewareSetKey = "__AuthenticationMiddlewareSet";
    internal const string AuthorizationMiddlewareSetKey = "__AuthorizationMiddlewareSet";

    /// <summary>Authentication, then the rate limiter (which partitions by key), then authorization.</summary>
    public static WebApplication UseFileTransferSecurity(this WebApplication app)
    {
        // A request that carries no credential can only come out of authentication anonymous (no
        // result): it skips the authentication service, its handler and their per-request state.
        // Its User is the empty anonymous principal either way, authorization judges it the same, and
        // a 401 challenge still goes through the handler (which then finds nothing, as before).
        // UseAuthentication marks only the branch as authenticated; without the mark on the app,
        // WebApplication would add a second, unconditional authentication in front of everything.
        // A configured API key is recognized before, without the authentication service at all.
        app.UseMiddleware<KnownKeyAuthentication>();
        app.UseWhen(
            context => !KnownKeyAuthentication.IsAuthenticated(context) && FileTransferAuthenticationHandler.PresentsCredential(context.Request),
            credentials => credentials.UseAuthentication());
        ((IApplicationBuilder)app).Properties[AuthenticationMiddlewareSetKey] = true;
        app.UseMiddleware<ClientLimitsMiddleware>();
        // The framework's authorization middleware, behind a known key's remembered grants of endpoints.
        app.UseMiddleware<KnownKeyAuthorization>();
        ((IApplicationBuilder)app).Properties[AuthorizationMiddlewareSetKey] = true;

        // Resolved now so that a development key exists, and is printed, before the first request.
        var keys = app.Services.GetRequiredService<ApiKeyStore>();
        var signer = app.Services.GetRequiredService<SignedLinkSigner>();
        var auth = app.Services.GetRequiredService<IOptions<AuthOptions>>().Value;
        var developmentKeyLog = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger(DevelopmentKeyFile.LogCategory);
        app.Lifetime.ApplicationStarted.Register(() =>
        {
            if (keys.DevelopmentKey is { FilePath: { } file } stored)
            {
                Log.DevelopmentKeyStored(developmentKeyLog, file, stored.Origin, stored.Key);
            }
            else if (keys.DevelopmentKey is { } unstored)
            {
                Log.DevelopmentKeyNotStored(developmentKeyLog, unstored.Origin, unstored.Key);
            }
            else if (keys.Count == 0)
            {
                Log.NoApiKeys(app.Logger, auth.AllowAnonymousRead ? " except anonymous reads (Auth:AllowAnonymousRead)" : "");
            }

            if (signer.IsKeyGenerated)
            {
                Log.SigningKeyGenerated(app.Logger);
            }
        });
        return app;
    }

    private sealed class AuthOptionsValidator : IValidateOptions<AuthOptions>
    {
        public ValidateOptionsResult Validate(string? name, AuthOptions options)
        {
            var problems = options.Problems().ToList();
            return problems.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problems);
        }
    }
}
