using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// The gRPC reference server in another stack: benchmarks/python-grpc/server.py on Debian's
/// /usr/bin/python3 with python3-grpcio (C-core), serving DownloadFile and UploadFile from the same
/// root and proto as ours, 32 KiB chunks (ours's default), the same API key required. h2c only;
/// peak memory and CPU are read from /proc like nginx's.
/// </summary>
internal sealed partial class PythonGrpcServer : ServerUnderTest
{
    public const string ServerName = "python-grpcio";
    public const string Interpreter = "/usr/bin/python3";

    private readonly StringBuilder _log = new();
    private readonly TaskCompletionSource<Uri> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private PythonGrpcServer(string rootPath)
        : base(ServerName, rootPath)
    {
    }

    public override string ConfigurationFileName => Name + ".txt";

    /// <summary>Why the reference server cannot run here, or null when it can.</summary>
    public static async Task<string?> MissingAsync()
    {
        if (!File.Exists(Interpreter))
        {
            return $"{Interpreter} is not installed";
        }

        var probe = await ExternalTool.RunAsync(Interpreter, ["-c", "import grpc, grpc_tools.protoc"], TimeSpan.FromSeconds(30));
        return probe.ExitCode == 0 ? null : "python3-grpcio / python3-grpc-tools are not installed (apt-get install python3-grpcio python3-grpc-tools)";
    }

    public static async Task<PythonGrpcServer> StartAsync(string script, string rootPath, int workers)
    {
        var server = new PythonGrpcServer(rootPath);
        string[] arguments = [script, "--root", rootPath, "--key", OurServer.ApiKey, "--chunk", "32768", "--workers", workers.ToString(System.Globalization.CultureInfo.InvariantCulture)];
        server.Configuration = $"{Interpreter} {string.Join(' ', arguments)}\n\ngrpcio {await VersionAsync()}, one process, a ThreadPoolExecutor of {workers} workers (one per running call)\n";
        var start = new ProcessStartInfo(Interpreter, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        server.Process = Process.Start(start) ?? throw new InvalidOperationException("Could not start " + Interpreter);
        server.Process.OutputDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.ErrorDataReceived += (_, e) => server.OnLine(e.Data);
        server.Process.BeginOutputReadLine();
        server.Process.BeginErrorReadLine();
        var first = await Task.WhenAny(server._listening.Task, server.Process.WaitForExitAsync(), Task.Delay(TimeSpan.FromSeconds(60)));
        if (first != server._listening.Task)
        {
            await server.DisposeAsync();
            throw new InvalidOperationException($"{ServerName} did not start: {server.Log()}");
        }

        server.Http2 = await server._listening.Task;
        return server;
    }

    /// <summary>grpcio's version as Debian's interpreter imports it.</summary>
    public static Task<string> VersionAsync() => ExternalTool.DescribeAsync(Interpreter, "-c", "import grpc, google.protobuf; print('grpcio', grpc.__version__, 'protobuf', google.protobuf.__version__)");

    public override string Log()
    {
        lock (_log)
        {
            return _log.ToString();
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_log)
        {
            _log.Append(line).Append('\n');
        }

        if (ListeningLine().Match(line) is { Success: true } match)
        {
            _listening.TrySetResult(new Uri(match.Groups["url"].Value));
        }
    }

    [GeneratedRegex(@"Listening on (?<url>\S+) \(Http2\)")]
    private static partial Regex ListeningLine();
}
