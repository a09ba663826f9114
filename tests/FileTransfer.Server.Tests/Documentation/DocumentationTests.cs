using System.Net;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

public sealed class DocumentationTests(FileTransferFactory factory) : IClassFixture<FileTransferFactory>
{
    [Fact]
    public async Task OpenApi_Document_Describes_The_File_Endpoints()
    {
        using var client = factory.CreateClient();

        var document = await client.GetFromJsonAsync<JsonElement>("/openapi/v1.json", TestTimeout.Token);

        var paths = document.GetProperty("paths");
        Assert.True(paths.TryGetProperty("/api/files", out var list));
        Assert.True(list.TryGetProperty("get", out _));
        Assert.True(list.TryGetProperty("post", out _));
        var file = paths.EnumerateObject().Single(p => p.Name.StartsWith("/api/files/{", StringComparison.Ordinal)).Value;
        Assert.Equal(["get", "put", "post", "delete", "head"], new[] { "get", "put", "post", "delete", "head" }.Where(m => file.TryGetProperty(m, out _)));
    }

    [Fact]
    public async Task Swagger_Ui_Is_Served_At_Swagger()
    {
        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/swagger/index.html", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("swagger-ui", await response.Content.ReadAsStringAsync(TestTimeout.Token), StringComparison.OrdinalIgnoreCase);
    }
}
