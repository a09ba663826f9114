using FileTransfer.Server.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// ASP.NET Core's hosting layer starts an Activity and a log scope per request whenever its logger is
/// enabled at Critical. The server's logger factory reports it enabled only while its request lines
/// or the console's scopes would show them (issue 26); every other category is as configured.
/// </summary>
public sealed class HostingRequestLoggerTests
{
    [Theory]
    [InlineData(null, null, false)]
    [InlineData("Logging:LogLevel:Microsoft.AspNetCore", "Information", true)]
    [InlineData("Logging:LogLevel:Microsoft.AspNetCore.Hosting.Diagnostics", "Debug", true)]
    [InlineData("Logging:Console:FormatterOptions:IncludeScopes", "true", true)]
    [InlineData("Logging:LogLevel:Microsoft.AspNetCore", "Error", false)]
    public void Hosting_Counts_As_Enabled_Only_For_What_Reads_Its_Request_Work(string? key, string? value, bool enabled)
    {
        using var factory = new FileTransferFactory().With("Logging:LogLevel:Microsoft.AspNetCore", "Warning");
        if (key is not null)
        {
            factory.With(key, value);
        }

        var loggers = factory.Services.GetRequiredService<ILoggerFactory>();
        var hosting = loggers.CreateLogger(HostingRequestLogger.Category);

        Assert.Equal(enabled, hosting.IsEnabled(LogLevel.Critical));
        Assert.Equal(enabled, hosting.IsEnabled(LogLevel.Warning));
        Assert.True(loggers.CreateLogger("Microsoft.AspNetCore.Server.Kestrel").IsEnabled(LogLevel.Error));
    }

    [Fact]
    public async Task A_Problem_Carries_The_W3C_Trace_Id_When_Request_Lines_Are_Logged()
    {
        using var factory = new FileTransferFactory().With("Logging:LogLevel:Microsoft.AspNetCore", "Information");
        using var client = factory.CreateClient();
        client.DefaultRequestHeaders.Add("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

        using var problem = await client.GetAsync("/api/files/missing.txt", TestTimeout.Token);

        Assert.Contains("\"traceId\":\"00-0af7651916cd43dd8448eb211c80319c-", await problem.Content.ReadAsStringAsync(TestTimeout.Token), StringComparison.Ordinal);
    }
}
