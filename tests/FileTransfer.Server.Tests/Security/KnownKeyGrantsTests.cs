using System.Net;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Infrastructure;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// A key's grant of a policy is remembered (<see cref="KnownKeyGrants"/>): its later requests to the
/// same endpoint skip the authorization service, and still count as authorization attempts. What is
/// remembered is one key's grant of one policy, never a refusal, and nothing at all when another
/// handler could decide.
/// </summary>
public sealed class KnownKeyGrantsTests
{
    private const string GrantedLine = "Authorization was successful.";
    private const string GrantedAttempts = """aspnetcore_authorization_attempts_total{aspnetcore_authorization_result="success",aspnetcore_user_is_authenticated="true"}""";

    [Fact]
    public async Task A_Read_Key_Is_Refused_A_Write_Even_After_Many_Granted_Reads()
    {
        using var factory = new SecurityFactory();
        using var read = factory.ClientWith(SecurityFactory.ReadKey);
        using var everything = factory.ClientWith(FileTransferFactory.TestKey);

        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await read.GetAsync($"/api/files/probe-principal/a.bin?probe=grants{i}", TestTimeout.Token)).StatusCode);
            Assert.Equal(HttpStatusCode.OK, (await everything.PutAsync("/api/files/probe/a.bin", new ByteArrayContent([1]), TestTimeout.Token)).StatusCode);
        }

        // The write policy was granted ten times, to another key; the read key, ten times, another policy.
        for (var i = 0; i < 3; i++)
        {
            var refused = await Problems.AssertAsync(await read.PutAsync("/api/files/probe/a.bin", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Forbidden);
            Assert.Contains("'write' scope", refused.GetProperty("detail").GetString(), StringComparison.Ordinal);
            await Problems.AssertAsync(await read.GetAsync("/api/files/probe-any-method/a.bin", TestTimeout.Token), HttpStatusCode.Forbidden);
        }

        Assert.Equal(HttpStatusCode.OK, (await read.GetAsync("/api/files/probe-principal/a.bin?probe=grants-after", TestTimeout.Token)).StatusCode);
    }

    [Fact]
    public async Task Later_Grants_Skip_The_Authorization_Service_And_Are_Still_Counted()
    {
        var logs = new LogSink();
        using var factory = new SecurityFactory();
        factory.With("Logging:LogLevel:Microsoft.AspNetCore.Authorization", "Debug").WithLogs(logs);
        using var read = factory.ClientWith(SecurityFactory.ReadKey);

        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await read.GetAsync($"/api/files/probe-principal/a.bin?probe=skip{i}", TestTimeout.Token)).StatusCode);
        }

        var metrics = await read.GetStringAsync("/metrics", TestTimeout.Token);

        // The framework's service judged the first request only (its Debug line); all five are attempts, in its series.
        Assert.Single(logs.Entries, entry => entry.Message == GrantedLine);
        Assert.Equal(5, MetricsText.ValueOf(metrics, GrantedAttempts));
    }

    [Fact]
    public async Task Later_Grants_Of_An_Endpoint_Skip_The_Authorization_Middleware_But_Other_Keys_Do_Not()
    {
        var results = new CountingResultHandler();
        using var factory = new SecurityFactory();
        factory.WithServices(services => services.AddSingleton<IAuthorizationMiddlewareResultHandler>(provider => results.Over(new ProblemAuthorizationResultHandler(provider))));
        using var read = factory.ClientWith(SecurityFactory.ReadKey);
        using var everything = factory.ClientWith(FileTransferFactory.TestKey);

        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await read.GetAsync($"/api/files/probe-principal/a.bin?probe=endpoint{i}", TestTimeout.Token)).StatusCode);
        }

        // The middleware judged the read key's first request only; the other key's first goes through it too.
        Assert.Equal(1, results.Calls);
        Assert.Equal(HttpStatusCode.OK, (await everything.GetAsync("/api/files/probe-principal/a.bin?probe=endpoint-other", TestTimeout.Token)).StatusCode);
        Assert.Equal(2, results.Calls);
        var metrics = await read.GetStringAsync("/metrics", TestTimeout.Token);
        Assert.Equal(6, MetricsText.ValueOf(metrics, GrantedAttempts));
        await Problems.AssertAsync(await read.PutAsync("/api/files/probe/a.bin", new ByteArrayContent([1]), TestTimeout.Token), HttpStatusCode.Forbidden);
    }

    [Fact]
    public async Task Nothing_Is_Remembered_When_Another_Handler_Could_Decide()
    {
        var handler = new CountingHandler();
        using var factory = new SecurityFactory();
        factory.WithServices(services => services.AddSingleton<IAuthorizationHandler>(handler));
        using var read = factory.ClientWith(SecurityFactory.ReadKey);

        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(HttpStatusCode.OK, (await read.GetAsync($"/api/files/probe-principal/a.bin?probe=other{i}", TestTimeout.Token)).StatusCode);
        }

        Assert.Equal(5, handler.Calls);
        Assert.Null(KnownKeyGrants.For(factory.Services));
    }

    [Fact]
    public void Only_Policies_Judged_By_The_Caller_Alone_Are_Remembered()
    {
        using var factory = new SecurityFactory();
        var grants = KnownKeyGrants.For(factory.Services)!;
        var key = factory.Services.GetRequiredService<ApiKeyStore>().Lookup(SecurityFactory.ReadKey)!;
        var scope = new AuthorizationPolicyBuilder().AddRequirements(new ScopeRequirement(["read"])).RequireAuthenticatedUser().Build();
        var sameRequirements = new AuthorizationPolicyBuilder().AddRequirements(new ScopeRequirement(["read"])).RequireAuthenticatedUser().Build();
        var assertion = new AuthorizationPolicyBuilder().AddRequirements(new ScopeRequirement(["read"])).RequireAssertion(_ => true).Build();

        grants.Remember(key, scope);
        grants.Remember(key, assertion);

        Assert.True(grants.IsGranted(key, scope));
        Assert.False(grants.IsGranted(key, sameRequirements));
        Assert.False(grants.IsGranted(key, assertion));
    }

    [Fact]
    public void At_Most_Capacity_Grants_Are_Remembered()
    {
        using var factory = new SecurityFactory();
        var grants = KnownKeyGrants.For(factory.Services)!;
        var key = factory.Services.GetRequiredService<ApiKeyStore>().Lookup(SecurityFactory.ReadKey)!;
        var policies = Enumerable.Range(0, KnownKeyGrants.Capacity + 1)
            .Select(_ => new AuthorizationPolicy([new DenyAnonymousAuthorizationRequirement()], []))
            .ToList();

        policies.ForEach(policy => grants.Remember(key, policy));

        Assert.True(grants.IsGranted(key, policies[^2]));
        Assert.False(grants.IsGranted(key, policies[^1]));
    }

    /// <summary>The authorization middleware's result handler, counted: only that middleware calls it.</summary>
    private sealed class CountingResultHandler
    {
        private int _calls;

        public int Calls => Volatile.Read(ref _calls);

        public IAuthorizationMiddlewareResultHandler Over(IAuthorizationMiddlewareResultHandler inner) => new Counted(this, inner);

        private sealed class Counted(CountingResultHandler counter, IAuthorizationMiddlewareResultHandler inner) : IAuthorizationMiddlewareResultHandler
        {
            public Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
            {
                Interlocked.Increment(ref counter._calls);
                return inner.HandleAsync(next, context, policy, authorizeResult);
            }
        }
    }

    /// <summary>A handler of the application's own, which could depend on anything: it only counts.</summary>
    private sealed class CountingHandler : IAuthorizationHandler
    {
        private int _calls;

        public int Calls => _calls;

        public Task HandleAsync(AuthorizationHandlerContext context)
        {
            Interlocked.Increment(ref _calls);
            return Task.CompletedTask;
        }
    }
}
