using System.Diagnostics;
using System.Text.RegularExpressions;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The built server started as its own process, configured only through environment variables,
/// exactly as an operator or a container runs it. Endpoints bind port 0; the addresses are read
/// from the server's "Listening on URL (Protocols)" log lines.
/// </summary>
public sealed partial class ServerProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];

    private ServerProcess(IReadOnlyDictionary<string, string> environment)
    {
        var start = new ProcessStartInfo("dotnet", [RepositoryPaths.ServerAssembly])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(RepositoryPaths.ServerAssembly)!,
        };
        start.Environment["Kestrel__Endpoints__Http1__Url"] = "http://127.0.0.1:0";
        start.Environment["Kestrel__Endpoints__Http2__Url"] = "http://127.0.0.1:0";
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

    public Uri Http1 { get; private set; } = null!;

    public Uri Http2 { get; private set; } = null!;

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

    public static async Task<ServerProcess> StartAsync(IReadOnlyDictionary<string, string> environment)
    {
        var server = new ServerProcess(environment);
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

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
        }

        var match = ListeningLine().Match(line);
        if (match.Success)
        {
            var url = new Uri(match.Groups["url"].Value);
            if (match.Groups["protocols"].Value == "Http1")
            {
                Http1 = url;
            }
            else if (match.Groups["protocols"].Value == "Http2")
            {
                Http2 = url;
            }

            if (Http1 is not null && Http2 is not null)
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
