using System.Net;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>The opt-in /debug/runtime endpoint the benchmarks read the server's allocations from.</summary>
public sealed class RuntimeEndpointTests
{
    [Theory]
    [InlineData(null)]
    [InlineData("false")]
    public async Task Returns_404_Unless_Enabled(string? setting)
    {
        using var factory = new FileTransferFactory();
        if (setting is not null)
        {
            factory.With("Diagnostics:EnableRuntimeEndpoint", setting);
        }

        using var client = factory.CreateClient();

        using var response = await client.GetAsync("/debug/runtime", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task Reports_Allocations_That_Grow_By_What_The_Process_Allocated_When_Enabled()
    {
        using var factory = new FileTransferFactory().With("Diagnostics:EnableRuntimeEndpoint", "true");
        using var client = factory.CreateClient();

        var before = await ReadAsync(client);
        // The in-memory test server shares this process, so an allocation here is one the endpoint must see.
        var garbage = new byte[16 * 1024 * 1024];
        GC.KeepAlive(garbage);
        var after = await ReadAsync(client);

        Assert.True(after.GetProperty("totalAllocatedBytes").GetInt64() - before.GetProperty("totalAllocatedBytes").GetInt64() >= garbage.Length);
        Assert.True(after.GetProperty("workingSetBytes").GetInt64() > 0);
        Assert.True(after.GetProperty("peakWorkingSetBytes").GetInt64() >= after.GetProperty("workingSetBytes").GetInt64() / 2);
        Assert.True(after.GetProperty("gen0Collections").GetInt32() >= 0);
        Assert.True(after.GetProperty("cpuTimeMilliseconds").GetDouble() > 0);
    }

    private static async Task<JsonElement> ReadAsync(HttpClient client)
    {
        using var response = await client.GetAsync("/debug/runtime", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await response.Content.ReadFromJsonAsync<JsonElement>(TestTimeout.Token);
    }
}
