using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Events;

/// <summary>
/// A webhook receiver in another language, run as a process: tests/interop/node/webhook-receiver.js
/// (the standardwebhooks reference library) or tests/interop/python/webhook_receiver.py (the spec's
/// verification on the standard library). Each prints one JSON line per request it verified or refused.
/// </summary>
public sealed class ReceiverProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<JsonElement> _lines = new();

    private ReceiverProcess(Process process) => _process = process;

    public Uri Url { get; private set; } = null!;

    public IReadOnlyList<JsonElement> Lines => [.. _lines];

    public static async Task<ReceiverProcess> StartNodeAsync(string secret)
    {
        var folder = Path.Combine(RepositoryPaths.Root, "tests", "interop", "node");
        if (!Directory.Exists(Path.Combine(folder, "node_modules", "standardwebhooks")))
        {
            Assert.Fail("standardwebhooks is not installed in tests/interop/node. Run scripts/install-test-deps.sh; .ci/run does before testing.");
        }

        return await StartAsync(new ProcessStartInfo("node", [Path.Combine(folder, "webhook-receiver.js"), secret]));
    }

    public static Task<ReceiverProcess> StartPythonAsync(string secret) =>
        StartAsync(new ProcessStartInfo("python3", [Path.Combine(RepositoryPaths.Root, "tests", "interop", "python", "webhook_receiver.py"), secret]));

    public async Task<IReadOnlyList<JsonElement>> WaitForAsync(int count)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        while (_lines.Count < count)
        {
            await Task.Delay(50, timeout.Token);
        }

        return Lines;
    }

    public async ValueTask DisposeAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync(CancellationToken.None);
        _process.Dispose();
    }

    private static async Task<ReceiverProcess> StartAsync(ProcessStartInfo start)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        var receiver = new ReceiverProcess(Process.Start(start)!);
        var listening = await receiver._process.StandardOutput.ReadLineAsync(TestTimeout.Token)
            ?? throw new InvalidOperationException("The receiver ended: " + await receiver._process.StandardError.ReadToEndAsync(TestTimeout.Token));
        receiver.Url = new Uri("http://127.0.0.1:" + int.Parse(listening.Split(' ')[1], CultureInfo.InvariantCulture) + "/hook");
        _ = Task.Run(async () =>
        {
            while (await receiver._process.StandardOutput.ReadLineAsync() is { } line)
            {
                receiver._lines.Enqueue(JsonDocument.Parse(line).RootElement.Clone());
            }
        });
        return receiver;
    }
}
