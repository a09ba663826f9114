using System.Diagnostics;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// One of the FileService client programs in tests/interop, each on an independent gRPC stack, run
/// as a process: every command prints one JSON object and exits 0 (done), 1 (a gRPC status, with
/// the ErrorInfo it decoded from grpc-status-details-bin), 2 (bad usage) or 3 (the server broke the
/// contract, e.g. a chunk before the metadata). The stacks are installed by
/// scripts/install-test-deps.sh, which .ci/run runs first: a missing stack fails the test rather than
/// skipping it, so that CI can never go green without having run it.
/// </summary>
public sealed class GrpcInteropClient
{
    // Above the programs' own 60 s call deadline, below the test suite's patience.
    private static readonly TimeSpan ProcessTimeout = TimeSpan.FromSeconds(90);

    private readonly string[] _interpreterArguments;
    private readonly Lazy<string?> _missing;

    private GrpcInteropClient(string stack, string executable, string[] interpreterArguments, string script, string[] probe)
    {
        Stack = stack;
        Executable = executable;
        Script = script;
        _interpreterArguments = interpreterArguments;
        _missing = new Lazy<string?>(() => Probe(probe));
    }

    /// <summary>@grpc/grpc-js with @grpc/proto-loader on Node.js (tests/interop/node, installed by <c>npm ci</c>).</summary>
    public static GrpcInteropClient GrpcJs { get; } = new(
        "grpc-js", "node", [], Path.Combine(RepositoryPaths.Root, "tests", "interop", "node", "client.js"),
        ["-e", "for (const m of ['@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs']) { try { require.resolve(m) } catch { console.error(`no ${m} in node_modules (npm ci)`); process.exit(1) } }"]);

    /// <summary>
    /// Debian's python3-grpcio (C-core) with python3-grpc-tools: Debian's interpreter, never a pyenv one,
    /// isolated (<c>-I</c>) so that PYTHONPATH or a user site-packages cannot swap in other grpc or protobuf modules.
    /// </summary>
    public static GrpcInteropClient Python { get; } = new(
        "python3-grpcio", "/usr/bin/python3", ["-I"], Path.Combine(RepositoryPaths.Root, "tests", "interop", "python", "client.py"),
        ["-c", "import grpc, grpc_tools.protoc"]);

    public string Stack { get; }

    public string Executable { get; }

    public string Script { get; }

    /// <summary>Runs one command against <paramref name="address"/>, sending <paramref name="apiKey"/> as a bearer token (none when null).</summary>
    public async Task<InteropRun> RunAsync(Uri address, string? apiKey, params string[] arguments)
    {
        if (_missing.Value is { } missing)
        {
            Assert.Fail($"{Stack} is not installed ({missing}). Run scripts/install-test-deps.sh; .ci/run does before testing.");
        }

        var start = Start([.. _interpreterArguments, Script, .. arguments]);

        // Address and key through the environment: a key on the command line shows in ps.
        start.Environment["FT_GRPC_ADDRESS"] = address.ToString();
        start.Environment.Remove("FT_API_KEY");
        if (apiKey is not null)
        {
            start.Environment["FT_API_KEY"] = apiKey;
        }

        var (exitCode, stdout, stderr) = await RunBoundedAsync(start);
        var command = $"{Stack} {string.Join(' ', arguments)}";
        JsonElement? json = null;
        if (stdout.Length > 0)
        {
            try
            {
                json = JsonDocument.Parse(stdout).RootElement.Clone();
            }
            catch (JsonException)
            {
                Assert.Fail($"{command} printed no JSON (exit {exitCode}): {stdout}{stderr}");
            }
        }

        return new InteropRun(command, exitCode, json, stdout, stderr);
    }

    private static async Task<(int ExitCode, string Stdout, string Stderr)> RunBoundedAsync(ProcessStartInfo start)
    {
        using var process = Process.Start(start)!;
        using var timeout = new CancellationTokenSource(ProcessTimeout);
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None);
            Assert.Fail($"{start.FileName} {string.Join(' ', start.ArgumentList)} did not finish within {ProcessTimeout.TotalSeconds} s and was killed: {await stderr}");
        }

        return (process.ExitCode, await stdout, await stderr);
    }

    private ProcessStartInfo Start(IEnumerable<string> arguments) =>
        new(Executable, arguments) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = Path.GetDirectoryName(Script) };

    // Null when the stack can run, else what is missing.
    private string? Probe(string[] probe)
    {
        if (!File.Exists(Script))
        {
            return Script + " is missing";
        }

        var start = Start([.. _interpreterArguments, .. probe]);
        try
        {
            var (exitCode, _, stderr) = RunBoundedAsync(start).GetAwaiter().GetResult();
            // The last line says what is missing (Python's ModuleNotFoundError, the Node probe's own line).
            return exitCode == 0 ? null : $"{Executable}: {stderr.Trim().Split('\n')[^1]}";
        }
        catch (System.ComponentModel.Win32Exception error)
        {
            return $"{Executable}: {error.Message}";
        }
    }
}

/// <summary>What one client program did: its exit code, its JSON result or error, and its standard error.</summary>
public sealed record InteropRun(string Command, int ExitCode, JsonElement? Json, string Stdout, string Stderr)
{
    /// <summary>The JSON result of a command that must succeed.</summary>
    public JsonElement Succeeded()
    {
        Assert.True(ExitCode == 0 && Json is not null, $"{Command} failed with exit {ExitCode}: {Stdout}{Stderr}");
        return Json!.Value;
    }

    /// <summary>The gRPC status of a command that must fail with one (exit code 1).</summary>
    public InteropError Refused()
    {
        Assert.True(ExitCode == 1 && Json is not null && Json.Value.TryGetProperty("error", out _), $"{Command} was expected to fail with a gRPC status, got exit {ExitCode}: {Stdout}{Stderr}");
        var error = Json!.Value.GetProperty("error");
        return new InteropError(
            error.GetProperty("code").GetInt32(),
            error.GetProperty("status").GetString()!,
            error.GetProperty("message").GetString()!,
            error.GetProperty("reason").GetString(),
            error.GetProperty("domain").GetString());
    }
}

/// <summary>A status as the client's own stack reported it; Reason and Domain from the google.rpc.ErrorInfo detail.</summary>
public sealed record InteropError(int Code, string Status, string Message, string? Reason, string? Domain);
