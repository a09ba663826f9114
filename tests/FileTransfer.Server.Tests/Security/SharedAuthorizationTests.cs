using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Authorization's stateless services are built once per process, not once per request (issue 26):
/// two requests' scopes get the same instances. What they decide is covered by the scope, key,
/// token and link tests.
/// </summary>
public sealed class SharedAuthorizationTests
{
    [Fact]
    public void Two_Requests_Share_The_Authorization_Services()
    {
        using var factory = new FileTransferFactory();
        using var first = factory.Services.CreateScope();
        using var second = factory.Services.CreateScope();

        Assert.Same(first.ServiceProvider.GetRequiredService<IAuthorizationService>(), second.ServiceProvider.GetRequiredService<IAuthorizationService>());
        Assert.Same(first.ServiceProvider.GetRequiredService<IPolicyEvaluator>(), second.ServiceProvider.GetRequiredService<IPolicyEvaluator>());
        Assert.Same(first.ServiceProvider.GetRequiredService<IAuthorizationHandlerProvider>(), second.ServiceProvider.GetRequiredService<IAuthorizationHandlerProvider>());
    }
}
