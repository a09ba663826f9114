using System.Diagnostics;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// Runs a Kreya script under Node.js (Kreya's scripts are ES modules on Node) with a stand-in for
/// the part of the <c>kreya</c> object the project's scripts use: <c>grpc.onResponse</c>,
/// <c>grpc.onCallCompleted</c>, <c>test</c>, <c>trace</c>, <c>preview.html</c> and
/// <c>variables</c>. The responses are fed as Kreya shows them: proto3 JSON. The script's temp
/// folder (<c>os.tmpdir()</c>) is a fresh folder of this host.
/// </summary>
public sealed class KreyaScriptHost : IDisposable
{
    private const string Runner = """
        import { readFile } from 'fs/promises';
        import { pathToFileURL } from 'url';

        const [script, messagesFile, statusCode] = process.argv.slice(2);
        const state = { tests: [], traces: [], previews: [], variables: {} };
        const handlers = { response: [], completed: [] };
        globalThis.kreya = {
          grpc: { onResponse: f => handlers.response.push(f), onCallCompleted: f => handlers.completed.push(f) },
          test: (name, fn) => {
            try { fn(); state.tests.push({ name, passed: true, message: '' }); }
            catch (e) { state.tests.push({ name, passed: false, message: String(e?.message ?? e) }); }
          },
          trace: message => state.traces.push(String(message)),
          preview: { html: async html => { state.previews.push(String(html)); } },
          variables: {
            set: (name, value) => { state.variables[name] = value; },
            get: name => state.variables[name],
            delete: name => { delete state.variables[name]; },
          },
        };

        const messages = JSON.parse(await readFile(messagesFile, 'utf8'));
        await import(pathToFileURL(script).href);
        for (const [index, content] of messages.entries()) {
          for (const f of handlers.response) await f({ index, content });
        }
        for (const f of handlers.completed) await f({ status: { code: Number(statusCode) }, responseCount: messages.length });
        process.stdout.write(JSON.stringify(state));
        """;

    public KreyaScriptHost()
    {
        Folder = Path.Combine(Path.GetTempPath(), "filetransfer-tests", "kreya-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Folder);
        File.WriteAllText(Path.Combine(Folder, "runner.mjs"), Runner);
    }

    /// <summary>What the script sees as <c>os.tmpdir()</c>.</summary>
    public string Folder { get; }

    /// <summary>
    /// Checks the syntax of a script as an ES module. Node 20's <c>node --check file.js</c> passes a
    /// broken file that uses <c>import</c>, so the source goes through standard input as a module.
    /// </summary>
    public static async Task<(int ExitCode, string Error)> CheckSyntaxAsync(string source)
    {
        var (exitCode, _, error) = await RunNodeAsync(["--check", "--input-type=module"], source, environment: null);
        return (exitCode, error);
    }

    /// <summary>Runs a gRPC operation's script over these response messages (proto3 JSON) and a final status.</summary>
    public async Task<KreyaScriptRun> RunGrpcAsync(string scriptFile, IEnumerable<string> responses, int statusCode = 0)
    {
        // As .mjs, Node loads the script as the ES module Kreya runs it as, whatever its version's defaults.
        var script = Path.Combine(Folder, "script.mjs");
        File.Copy(Path.Combine(KreyaProject.Root, scriptFile), script, overwrite: true);
        var messages = Path.Combine(Folder, "messages.json");
        await File.WriteAllTextAsync(messages, "[" + string.Join(",", responses) + "]", TestTimeout.Token);

        var environment = new Dictionary<string, string> { ["TMPDIR"] = Folder, ["TMP"] = Folder, ["TEMP"] = Folder };
        var (exitCode, output, error) = await RunNodeAsync([Path.Combine(Folder, "runner.mjs"), script, messages, statusCode.ToString(System.Globalization.CultureInfo.InvariantCulture)], null, environment);
        Assert.True(exitCode == 0, $"node exited with {exitCode}: {error}");

        using var document = JsonDocument.Parse(output);
        var root = document.RootElement;
        return new KreyaScriptRun(
            [.. root.GetProperty("tests").EnumerateArray().Select(t => new KreyaScriptTest(t.GetProperty("name").GetString()!, t.GetProperty("passed").GetBoolean(), t.GetProperty("message").GetString()!))],
            [.. root.GetProperty("traces").EnumerateArray().Select(t => t.GetString()!)],
            [.. root.GetProperty("previews").EnumerateArray().Select(t => t.GetString()!)],
            root.GetProperty("variables").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString()!));
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Folder, recursive: true);
        }
        catch (IOException)
        {
            // The OS cleans temp later.
        }
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunNodeAsync(string[] arguments, string? input, Dictionary<string, string>? environment)
    {
        var start = new ProcessStartInfo("node", arguments)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var (name, value) in environment ?? [])
        {
            start.Environment[name] = value;
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync(TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.StandardInput.WriteAsync(input);
        process.StandardInput.Close();
        await process.WaitForExitAsync(TestTimeout.Token);
        return (process.ExitCode, await output, await error);
    }
}

/// <summary>What a script reported: its <c>kreya.test</c> results, traces, previews and user variables.</summary>
public sealed record KreyaScriptRun(
    IReadOnlyList<KreyaScriptTest> Tests,
    IReadOnlyList<string> Traces,
    IReadOnlyList<string> Previews,
    IReadOnlyDictionary<string, string> Variables)
{
    public KreyaScriptTest Test(string name) => Assert.Single(Tests, t => t.Name == name);
}

/// <summary>One <c>kreya.test</c> result.</summary>
public sealed record KreyaScriptTest(string Name, bool Passed, string Message);
