using System.Diagnostics;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>tus-js-client 4.3.1 on Node.js (tests/interop/node/tus-upload.js, installed by <c>npm ci</c>), run as a process.</summary>
public static class TusJsClient
{
    private static readonly string Script = Path.Combine(RepositoryPaths.Root, "tests", "interop", "node", "tus-upload.js");

    /// <summary>Runs one upload; returns the exit code (137 when it killed itself) and its JSON events.</summary>
    public static async Task<(int ExitCode, IReadOnlyList<JsonElement> Events, string Error)> RunAsync(params string[] arguments)
    {
        if (!Directory.Exists(Path.Combine(Path.GetDirectoryName(Script)!, "node_modules", "tus-js-client")))
        {
            Assert.Fail("tus-js-client is not installed in tests/interop/node. Run scripts/install-test-deps.sh; .ci/run does before testing.");
        }

        var start = new ProcessStartInfo("node", [Script, .. arguments]) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var stderr = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        var events = (await stdout).Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonDocument.Parse(line).RootElement.Clone()).ToList();
        return (process.ExitCode, events, await stderr);
    }

    /// <summary>The event named <paramref name="name"/>, which the run must have printed.</summary>
    public static JsonElement Event(IReadOnlyList<JsonElement> events, string name) =>
        events.SingleOrDefault(e => e.GetProperty("event").GetString() == name) is { ValueKind: JsonValueKind.Object } found
            ? found
            : throw new Xunit.Sdk.XunitException($"No '{name}' event in: {string.Join(' ', events)}");
}
