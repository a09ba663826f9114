using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Every 4xx and 5xx the application produces, including those the framework produces itself
/// (401, 403, 404 for unknown routes, 405, 415, 500), is problem+json without stack trace or server path.
/// </summary>
public sealed class ProblemResponseTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Theory]
    [InlineData("GET", "/api/files/a%5C..%5Cb", FileTransferFactory.TestKey, HttpStatusCode.BadRequest)]
    [InlineData("HEAD", "/api/files", FileTransferFactory.TestKey, HttpStatusCode.BadRequest)]
    [InlineData("GET", "/api/files/missing.bin", FileTransferFactory.TestKey, HttpStatusCode.NotFound)]
    [InlineData("GET", "/no/such/route", null, HttpStatusCode.NotFound)]
    [InlineData("GET", "/api/files", null, HttpStatusCode.Unauthorized)]
    [InlineData("GET", "/api/files", "unknown-key-000000000000", HttpStatusCode.Unauthorized)]
    [InlineData("PUT", "/api/files/probe/x", SecurityFactory.ReadKey, HttpStatusCode.Forbidden)]
    [InlineData("DELETE", "/api/links", FileTransferFactory.TestKey, HttpStatusCode.MethodNotAllowed)]
    [InlineData("POST", "/openapi/v1.json", null, HttpStatusCode.MethodNotAllowed)]
    [InlineData("GET", "/api/probe/throw", null, HttpStatusCode.InternalServerError)]
    public async Task Errors_Are_Problem_Json_Without_Stack_Trace_Or_Server_Path(string method, string path, string? key, HttpStatusCode status)
    {
        using var client = factory.ClientWith(key);

        using var response = await client.SendAsync(new HttpRequestMessage(new HttpMethod(method), path), TestTimeout.Token);

        if (method == "HEAD")
        {
            // A HEAD response has no body (RFC 9110 9.3.2); its headers still announce the problem.
            Assert.Equal(status, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            return;
        }

        await Problems.AssertAsync(response, status);
        var body = await response.Content.ReadAsStringAsync(TestTimeout.Token);
        Assert.DoesNotContain(factory.Storage.RootPath, body, StringComparison.Ordinal);
        Assert.DoesNotContain(AppContext.BaseDirectory.TrimEnd('/'), body, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_405_Names_The_Allowed_Methods()
    {
        using var client = factory.ClientWith(FileTransferFactory.TestKey);

        using var response = await client.DeleteAsync("/api/links", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.MethodNotAllowed);
        Assert.Equal(["POST"], response.Content.Headers.Allow);
    }
}
