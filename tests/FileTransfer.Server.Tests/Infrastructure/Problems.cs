using System.Net;
using System.Text.Json;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>Asserts that a response is an RFC 9457 problem with the expected status.</summary>
public static class Problems
{
    public static async Task<JsonElement> AssertAsync(HttpResponseMessage response, HttpStatusCode status)
    {
        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var body = await response.Content.ReadAsStringAsync();
        using var document = JsonDocument.Parse(body);
        var problem = document.RootElement.Clone();
        Assert.Equal((int)status, problem.GetProperty("status").GetInt32());
        Assert.DoesNotContain("   at ", body, StringComparison.Ordinal);
        return problem;
    }
}
