using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.OpenApi;

/// <summary>
/// What a user sees: Swagger UI rendered by headless Chromium draws the lock ("Authorize" button of
/// an operation) on protected operations only. Runs where <c>chromium</c> is installed
/// (<c>apt-get install chromium</c>); reported as skipped elsewhere.
/// </summary>
public sealed partial class SwaggerUiLockTests
{
    [FactWhenChromium]
    public async Task Swagger_Ui_Draws_A_Lock_On_Protected_Operations_Only()
    {
        using var server = new KestrelFactory();
        var address = server.AddressOf(HttpProtocols.Http1);
        using var profile = new TempStorage();

        var (exitCode, output, error) = await ExternalTool.RunAsync(
            FactWhenChromiumAttribute.Chromium!,
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            $"--user-data-dir={profile.RootPath}", "--virtual-time-budget=5000", "--dump-dom",
            new Uri(address, "/swagger/index.html").ToString());

        Assert.True(exitCode == 0, error);
        var locks = Operations().Matches(System.Text.Encoding.UTF8.GetString(output))
            .ToDictionary(m => $"{m.Groups["method"].Value.ToUpperInvariant()} {m.Groups["path"].Value}", m => m.Value.Contains("authorization__btn", StringComparison.Ordinal));
        Assert.Equal(
            new Dictionary<string, bool>
            {
                ["GET /healthz"] = false,
                ["GET /healthz/live"] = false,
                ["GET /healthz/ready"] = false,
                ["GET /metrics"] = false,
                ["GET /openapi/v1.json"] = false,
                ["POST /api/links"] = true,
                ["GET /api/events"] = true,
                ["GET /api/files"] = true,
                ["POST /api/files"] = true,
                ["GET /api/files/{path}"] = true,
                ["HEAD /api/files/{path}"] = true,
                ["PUT /api/files/{path}"] = true,
                ["POST /api/files/{path}"] = true,
                ["DELETE /api/files/{path}"] = true,
                ["OPTIONS /api/files/{path}"] = false,
                ["OPTIONS /api/uploads"] = false,
                ["POST /api/uploads"] = true,
                ["HEAD /api/uploads/{uploadId}"] = true,
                ["PATCH /api/uploads/{uploadId}"] = true,
                ["DELETE /api/uploads/{uploadId}"] = true,
                ["GET /api/usage"] = true,
                ["GET /api/caller"] = false,
            },
            locks);
    }

    // One collapsed operation block of Swagger UI, from its opening tag up to the next block.
    [GeneratedRegex("""<div class="opblock opblock-(?<method>[a-z]+)".*?data-path="(?<path>[^"]+)".*?(?=<div class="opblock opblock-|$)""", RegexOptions.Singleline)]
    private static partial Regex Operations();
}

/// <summary>A fact that runs only where a Chromium binary is on the PATH.</summary>
public sealed class FactWhenChromiumAttribute : FactAttribute
{
    public FactWhenChromiumAttribute()
    {
        if (Chromium is null)
        {
            Skip = "chromium is not installed";
        }
    }

    public static string? Chromium { get; } = new[] { "chromium", "chromium-browser", "google-chrome" }
        .SelectMany(name => (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Select(dir => Path.Combine(dir, name)))
        .FirstOrDefault(File.Exists);
}
