using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// A request without any credential skips authentication (it could only come out anonymous); a
/// request with one goes through it exactly once, and every answer stays what it was.
/// </summary>
public sealed class CredentialFreeRequestTests : IDisposable
{
    private readonly CountingFactory _factory = new();

    public CredentialFreeRequestTests()
    {
        _factory.With("Auth:AllowAnonymousRead", "true");
        _factory.Storage.Write("public.txt", [7]);
    }

    public void Dispose() => _factory.Dispose();

    [Fact]
    public async Task Anonymous_Reads_And_Known_Keys_Skip_The_Authentication_Scheme_And_A_Refused_Key_Passes_It_Once()
    {
        using var anonymous = _factory.ClientWith(null);
        using var keyed = _factory.ClientWith(SecurityFactory.ReadKey);
        using var refused = _factory.ClientWith("wrong-key-0000000000000");
        using var warmUp = await anonymous.GetAsync("/api/files/public.txt", TestTimeout.Token);
        var schemes = (CountingSchemeProvider)_factory.Services.GetRequiredService<IAuthenticationSchemeProvider>();

        var before = schemes.AuthenticationPasses;
        using (var response = await anonymous.GetAsync("/api/files/public.txt", TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal([7], await response.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        }

        Assert.Equal(before, schemes.AuthenticationPasses);

        using (var response = await keyed.GetAsync("/api/files/public.txt", TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        // A configured key is recognized before the scheme (its shared principal, nothing per request).
        Assert.Equal(before, schemes.AuthenticationPasses);

        await Problems.AssertAsync(await refused.GetAsync("/api/files/public.txt", TestTimeout.Token), HttpStatusCode.Unauthorized);
        Assert.Equal(before + 1, schemes.AuthenticationPasses);
    }

    [Fact]
    public async Task Without_A_Credential_Writes_Still_Get_The_Bearer_Challenge()
    {
        using var anonymous = _factory.ClientWith(null);

        using var response = await anonymous.PutAsync("/api/files/probe/x", new ByteArrayContent([1]), TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Equal("Bearer realm=\"FileTransfer\"", response.Headers.WwwAuthenticate.ToString());
    }

    private sealed class CountingFactory : SecurityFactory
    {
        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            base.ConfigureWebHost(builder);
            builder.ConfigureTestServices(services => services.AddSingleton<IAuthenticationSchemeProvider, CountingSchemeProvider>());
        }
    }

    /// <summary>Counts the calls only the authentication middleware makes, once per request it handles.</summary>
    private sealed class CountingSchemeProvider(IOptions<AuthenticationOptions> options) : AuthenticationSchemeProvider(options)
    {
        private int _passes;

        public int AuthenticationPasses => Volatile.Read(ref _passes);

        public override Task<IEnumerable<AuthenticationScheme>> GetRequestHandlerSchemesAsync()
        {
            Interlocked.Increment(ref _passes);
            return base.GetRequestHandlerSchemesAsync();
        }
    }
}
