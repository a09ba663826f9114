using System.Diagnostics;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The built server started as its own process, configured only through environment variables and
/// command-line arguments, exactly as an operator or a container runs it. Unless a test asks for the
/// built-in endpoints, both endpoints bind port 0; the addresses are read from the server's
/// "Listening on URL (Protocols)" log lines.
/// </summary>
public sealed partial class ServerProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];
    private readonly List<(Uri Url, string Protocols)> _endpoints = [];

    private static readonly string ServerProject = Path.Combine(RepositoryPaths.Root, "src", "FileTransfer.Server");

    private ServerProcess(IReadOnlyDictionary<string, string> environment, ServerProcessOptions options)
    {
        List<string> command = options.DotnetRun
            ? ["dotnet", "run", "--no-build", "-c", RepositoryPaths.Configuration, "--project", ServerProject, "--", .. options.Arguments]
            : options.Executable is { } executable ? [executable, .. options.Arguments]
            : ["dotnet", RepositoryPaths.ServerAssembly, .. options.Arguments];
        if (options.DescriptorLimit is { } limit)
        {
            // prlimit sets the soft and hard RLIMIT_NOFILE, then execs the server (same process id).
            command = ["prlimit", $"--nofile={limit}:{limit}", .. command];
        }

        var start = new ProcessStartInfo(command[0], command.Skip(1))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = options.WorkingDirectory ?? Path.GetDirectoryName(options.Executable ?? RepositoryPaths.ServerAssembly)!,
        };
        if (!options.BuiltInEndpoints)
        {
            start.Environment["Kestrel__Endpoints__Http1__Url"] = "http://127.0.0.1:0";
            start.Environment["Kestrel__Endpoints__Http2__Url"] = "http://127.0.0.1:0";
        }

        start.Environment["Logging__Console__FormatterName"] = "simple";
        start.Environment["Logging__Console__FormatterOptions__SingleLine"] = "true";
        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        _process = new Process { StartInfo = start };
        _process.OutputDataReceived += (_, e) => OnLine(e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(e.Data);
    }

    /// <summary>The endpoint that speaks exactly HTTP/1.1 (null if the server has none).</summary>
    public Uri Http1 { get; private set; } = null!;

    /// <summary>The endpoint that speaks exactly HTTP/2 (null if the server has none).</summary>
    public Uri Http2 { get; private set; } = null!;

    /// <summary>Every endpoint the server logged, with the protocols it named.</summary>
    public IReadOnlyList<(Uri Url, string Protocols)> Endpoints
    {
        get
        {
            lock (_output)
            {
                return [.. _endpoints];
            }
        }
    }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public string Output
    {
        get
        {
            lock (_output)
            {
                return string.Join('\n', _output);
            }
        }
    }

    public static Task<ServerProcess> StartAsync(IReadOnlyDictionary<string, string> environment) =>
        StartAsync(environment, new ServerProcessOptions());

    public static async Task<ServerProcess> StartAsync(IReadOnlyDictionary<string, string> environment, ServerProcessOptions options)
    {
        var server = new ServerProcess(environment, options);
        server._process.Start();
        server._process.BeginOutputReadLine();
        server._process.BeginErrorReadLine();
        var exited = server._process.WaitForExitAsync();
        var first = await Task.WhenAny(server._started.Task, exited, Task.Delay(TimeSpan.FromSeconds(60)));
        if (first != server._started.Task)
        {
            await server.DisposeAsync();
            throw new InvalidOperationException("The server did not start:\n" + server.Output);
        }

        return server;
    }

    /// <summary>Sends SIGTERM, what an orchestrator, systemd or <c>docker stop</c> sends to stop the server.</summary>
    public async Task TerminateAsync()
    {
        using var kill = Process.Start("kill", ["-TERM", Id.ToString(System.Globalization.CultureInfo.InvariantCulture)])!;
        await kill.WaitForExitAsync(TestTimeout.Token);
        Assert.Equal(0, kill.ExitCode);
    }

    /// <summary>Waits for the process to end (at most <paramref name="limit"/>) and returns its exit code.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan limit)
    {
        using var cancel = new CancellationTokenSource(limit);
        await _process.WaitForExitAsync(cancel.Token);
        return _process.ExitCode;
    }

    /// <summary>Waits until the output contains <paramref name="text"/>.</summary>
    public async Task WaitForOutputAsync(string text, CancellationToken cancellationToken)
    {
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            await Task.Delay(50, cancellationToken);
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
            var match = ListeningLine().Match(line);
            if (!match.Success)
            {
                return;
            }

            var url = new Uri(match.Groups["url"].Value);
            var protocols = match.Groups["protocols"].Value;
            _endpoints.Add((url, protocols));
            if (protocols == nameof(HttpProtocols.Http1))
            {
                Http1 = url;
            }
            else if (protocols == nameof(HttpProtocols.Http2))
            {
                Http2 = url;
            }

            // The server logs its two endpoints together once started, whatever their protocols.
            if ((Http1 is not null && Http2 is not null) || _endpoints.Count >= 2)
            {
                _started.TrySetResult();
            }
        }
    }

    [GeneratedRegex(@"Listening on (?<url>\S+) \((?<protocols>\w+)\)")]
    private static partial Regex ListeningLine();

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }
}

/// <summary>How <see cref="ServerProcess"/> starts the server; the defaults are the built dll, run from its own folder, on port 0.</summary>
public sealed record ServerProcessOptions
{
    /// <summary>The folder the process starts in; default the server's build output folder.</summary>
    public string? WorkingDirectory { get; init; }

    /// <summary>Leave <c>Kestrel__Endpoints__*</c> unset, so that the server's own defaults (or <see cref="Arguments"/>) apply.</summary>
    public bool BuiltInEndpoints { get; init; }

    /// <summary>Command-line arguments for the server (configuration as <c>--Section:Key=value</c>).</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>Start under this RLIMIT_NOFILE (soft and hard), through <c>prlimit</c>.</summary>
    public int? DescriptorLimit { get; init; }

    /// <summary>Start with <c>dotnet run --no-build --project src/FileTransfer.Server</c>, as the README does, instead of the dll.</summary>
    public bool DotnetRun { get; init; }

    /// <summary>Start this native executable (the Native AOT publish, <see cref="NativeServer"/>) instead of the dll.</summary>
    public string? Executable { get; init; }
}
