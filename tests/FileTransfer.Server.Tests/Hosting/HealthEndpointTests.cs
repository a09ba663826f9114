using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// The three health endpoints on the local disk: liveness never looks at the storage, readiness and
/// <c>/healthz</c> do; none needs a key.
/// </summary>
public sealed class HealthEndpointTests : IDisposable
{
    private readonly FileTransferFactory _server = new();

    [Fact]
    public async Task Live_Stays_Healthy_While_Ready_And_Healthz_Report_A_Storage_Root_That_Is_Gone()
    {
        using var client = _server.CreateClient();
        client.DefaultRequestHeaders.Authorization = null;

        var before = await StatusesAsync(client);
        Directory.Delete(_server.Storage.RootPath, recursive: true);
        var gone = await StatusesAsync(client);
        Directory.CreateDirectory(_server.Storage.RootPath);

        Assert.Equal([HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK], before);
        Assert.Equal([HttpStatusCode.OK, HttpStatusCode.ServiceUnavailable, HttpStatusCode.ServiceUnavailable], gone);
        Assert.Equal("Healthy", await client.GetStringAsync("/healthz/live", TestTimeout.Token));
    }

    public void Dispose() => _server.Dispose();

    private static async Task<HttpStatusCode[]> StatusesAsync(HttpClient client)
    {
        var statuses = new List<HttpStatusCode>();
        foreach (var path in new[] { "/healthz/live", "/healthz/ready", "/healthz" })
        {
            using var response = await client.GetAsync(path, TestTimeout.Token);
            statuses.Add(response.StatusCode);
        }

        return [.. statuses];
    }
}
