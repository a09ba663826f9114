using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Mvc.ApplicationParts;
using Microsoft.AspNetCore.Mvc.Controllers;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Architecture;

/// <summary>
/// The server's endpoints are plain endpoints, not MVC actions: MVC builds an application model by
/// reflection at start and cannot be compiled ahead of time (issue 26, the Native AOT server).
/// </summary>
public sealed class NoMvcTests(FileTransferFactory factory) : IClassFixture<FileTransferFactory>
{
    [Fact]
    public void No_Endpoint_Is_An_Mvc_Action_And_Mvc_Is_Not_Registered()
    {
        var endpoints = factory.Services.GetRequiredService<EndpointDataSource>().Endpoints;

        Assert.Contains(endpoints, e => e.DisplayName?.Contains("api/links", StringComparison.Ordinal) == true);
        Assert.DoesNotContain(endpoints, e => e.Metadata.GetMetadata<ControllerActionDescriptor>() is not null);
        Assert.Null(factory.Services.GetService<ApplicationPartManager>());
    }
}
