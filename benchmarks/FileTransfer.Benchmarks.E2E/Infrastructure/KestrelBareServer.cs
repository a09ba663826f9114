using System.Diagnostics;
using System.Text;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// "kestrel-bare" (<c>--kestrel-bare</c>): benchmarks/FileTransfer.Benchmarks.KestrelBare, Kestrel and one
/// handler that calls <c>SendFileAsync</c>, which benchmarks/run.sh publishes Native AOT as it does ours. The floor any ASP.NET Core
/// server pays per request on this runtime, so that the small-file rows split ours's cost into Kestrel's
/// and ours's. HTTP/1.1 and h2c on ports the harness chooses (as for nginx), the same root as ours;
/// peak memory and CPU are read from /proc like nginx's (it has no /debug/runtime).
/// </summary>
internal sealed class KestrelBareServer : ServerUnderTest
{
    public const string ServerName = "kestrel-bare";

    private readonly StringBuilder _output = new();

    /// <summary>How it was built, for the report: a Native AOT executable (as run.sh publishes it) or a dll on the JIT.</summary>
    public string Build { get; private set; } = "";

    private KestrelBareServer(string rootPath)
        : base(ServerName, rootPath)
    {
    }

    /// <summary>
    /// What it printed: nothing, unless it failed (it has no logging providers, so that no request
    /// pays for a log line); kept in memory since nothing should arrive.
    /// </summary>
    public override string Log()
    {
        lock (_output)
        {
            return _output.ToString();
        }
    }

    /// <summary>Starts <paramref name="executable"/> (the native executable of a publish, or a build's dll) serving <paramref name="rootPath"/>.</summary>
    public static async Task<KestrelBareServer> StartAsync(string executable, string rootPath)
    {
        var server = new KestrelBareServer(rootPath);
        var (http1, http2) = (FreePort(), FreePort());
        var dll = executable.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        server.Build = dll ? "a dll on the JIT" : "Native AOT";
        var start = new ProcessStartInfo(dll ? "dotnet" : executable, dll ? [executable] : [])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(executable)!,
        };

        // As for ours: nothing inherited from the shell that runs the harness may change its configuration.
        foreach (var key in start.Environment.Keys.Where(OurServer.IsConfiguration).ToList())
        {
            start.Environment.Remove(key);
        }

        var settings = new (string Key, string Value)[]
        {
            ("Kestrel__Endpoints__Http1__Url", $"http://127.0.0.1:{http1}"),
            ("Kestrel__Endpoints__Http2__Url", $"http://127.0.0.1:{http2}"),
            ("Kestrel__Endpoints__Http2__Protocols", "Http2"),
            ("Storage__RootPath", rootPath),
        };
        foreach (var (key, value) in settings)
        {
            start.Environment[key] = value;
        }

        server.Configuration = $"{start.FileName} {string.Join(' ', start.ArgumentList)}".TrimEnd() + "\n"
            + string.Join('\n', settings.Select(s => $"{s.Key}={s.Value}")) + "\n";
        server.Process = Process.Start(start) ?? throw new InvalidOperationException("Could not start " + executable);
        server.Process.OutputDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.ErrorDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.BeginOutputReadLine();
        server.Process.BeginErrorReadLine();
        server.Http1 = new Uri($"http://127.0.0.1:{http1}");
        server.Http2 = new Uri($"http://127.0.0.1:{http2}");
        foreach (var port in new[] { http1, http2 })
        {
            if (!await server.ListensAsync(port))
            {
                await server.DisposeAsync();
                throw new InvalidOperationException($"{ServerName} did not listen on {port}: {server.Log()}");
            }
        }

        return server;
    }

    private void OnLine(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.Append(line).Append('\n');
            }
        }
    }
}
