using FileTransfer.Benchmarks.E2E.Cases;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E;

/// <summary>Generates the files, starts both servers, runs the chosen cases and writes the report.</summary>
internal sealed class Harness(HarnessOptions options)
{
    public async Task<int> RunAsync()
    {
        var work = options.WorkDirectory ?? Path.Combine(Path.GetTempPath(), "filetransfer-bench-" + Guid.NewGuid().ToString("N")[..8]);
        var results = new List<CaseResult>();
        var context = new BenchContext(options, new Measurer(options, results), work);
        try
        {
            await PrepareAsync(context);
            await RunCasesAsync(context);
        }
        finally
        {
            // Also when starting one of them failed: no server outlives the harness.
            foreach (var server in new ServerUnderTest?[] { context.Ours, context.Baseline, context.Naive, context.Nginx })
            {
                if (server is not null)
                {
                    await server.DisposeAsync();
                }
            }

            if (options.WorkDirectory is null)
            {
                Directory.Delete(work, recursive: true);
            }
        }

        var command = "dotnet run -c Release --project benchmarks/FileTransfer.Benchmarks.E2E -- " + string.Join(' ', options.CommandLine);
        var report = MarkdownReport.Write(results, await MachineInfo.DescribeAsync(), command.TrimEnd(), Ratios.Compute(results));
        Console.WriteLine(report);
        if (options.OutDirectory is { } output)
        {
            Directory.CreateDirectory(output);
            await File.WriteAllTextAsync(Path.Combine(output, "report.md"), report);
            await Chart.WriteAsync(results, output);
        }

        var failed = results.Where(r => r.Error is not null).ToList();
        Console.Error.WriteLine(failed.Count == 0
            ? $"benchmark: {results.Count(r => r.Skipped is null)} cases completed with correct bytes, {results.Count(r => r.Skipped is not null)} skipped"
            : $"benchmark: {failed.Count} case(s) FAILED: {string.Join("; ", failed.Select(f => f.Key + ": " + f.Error))}");
        return failed.Count == 0 ? 0 : 1;
    }

    private async Task PrepareAsync(BenchContext context)
    {
        var files = context.FilesDirectory;
        context.Large = await TestFiles.CreateAsync(files, "large.bin", options.Size);
        context.Concurrent = await TestFiles.CreateAsync(files, "concurrent.bin", options.ConcurrentSize);
        context.Small1K = await TestFiles.CreateAsync(files, "small-1k.bin", 1024);
        context.Small64K = await TestFiles.CreateAsync(files, "small-64k.bin", 64 * 1024);
        var oursRoot = context.OursRoot;
        var nginxRoot = Path.Combine(context.WorkDirectory, "nginx-root");
        foreach (var file in new[] { context.Large, context.Concurrent, context.Small1K, context.Small64K })
        {
            await TestFiles.LinkIntoAsync(file, Path.Combine(oursRoot, BenchContext.Folder));
            await TestFiles.LinkIntoAsync(file, Path.Combine(nginxRoot, BenchContext.Folder));
        }

        context.Ours = await OurServer.StartAsync("ours", ServerDll(), oursRoot, options.ServerEnvironment);
        Console.Error.WriteLine($"[ours] {context.Ours.Http1} (HTTP/1.1), {context.Ours.Http2} (h2c); /debug/runtime costs {context.Ours.ReadingOverheadBytes} B per reading");
        if (options.BaselineEnvironment.Count > 0 || options.BaselineServer is not null)
        {
            // Same root as ours: the same files, read from the same inodes.
            context.Baseline = await OurServer.StartAsync("ours-before", options.BaselineServer ?? ServerDll(), oursRoot, ServerEnvironmentWith(options.BaselineEnvironment));
        }

        if (options.Cases.Contains("grpc"))
        {
            // The naive baseline serves the same root (the same inodes), from its own process.
            context.Naive = await OurServer.StartAsync(GrpcCases.Naive, BuiltDll("FileTransfer.Benchmarks.NaiveGrpc", "benchmarks"), oursRoot, new Dictionary<string, string>(), product: false);
            Console.Error.WriteLine($"[{GrpcCases.Naive}] {context.Naive.Http2} (h2c)");
        }

        if (ExternalTool.Find("nginx") is not { } nginx)
        {
            context.NginxMissing = "nginx is not installed (apt-get install nginx-light)";
        }
        else
        {
            context.Nginx = await NginxServer.StartAsync(nginx, Path.Combine(context.WorkDirectory, "nginx"), nginxRoot);
            Console.Error.WriteLine($"[nginx] {context.Nginx.Http1} (HTTP/1.1), {context.Nginx.Http2} (h2c)");
        }

        await UploadCases.ProbeAsync(context);
    }

    private async Task RunCasesAsync(BenchContext context)
    {
        var cases = options.Cases;
        if (cases.Contains("download"))
        {
            await DownloadCases.RunDotnetAsync(context);
        }

        if (cases.Contains("nginx"))
        {
            await DownloadCases.RunNeutralAsync(context);
        }

        if (cases.Contains("upload"))
        {
            await UploadCases.RunAsync(context);
        }

        if (cases.Contains("small"))
        {
            await SmallFileCases.RunAsync(context);
        }

        if (cases.Contains("concurrency"))
        {
            await ConcurrencyCase.RunAsync(context);
        }

        if (cases.Contains("grpc"))
        {
            await GrpcCases.RunDownloadsAsync(context);
            await GrpcCases.RunUploadsAsync(context);
        }

        if (cases.Contains("unary"))
        {
            await GrpcUnaryCase.RunAsync(context);
        }

        if (cases.Contains("sweep"))
        {
            await GrpcChunkSweep.RunAsync(context, (name, extra) =>
                OurServer.StartAsync(name, options.SweepServer ?? ServerDll(), context.OursRoot, ServerEnvironmentWith(extra)));
        }
    }

    /// <summary><c>--server-env</c>, with <paramref name="overrides"/> replacing or adding variables.</summary>
    private Dictionary<string, string> ServerEnvironmentWith(IReadOnlyDictionary<string, string> overrides)
    {
        var environment = new Dictionary<string, string>(options.ServerEnvironment);
        foreach (var (key, value) in overrides)
        {
            environment[key] = value;
        }

        return environment;
    }

    /// <summary>The server dll the solution built next to this harness (same configuration).</summary>
    private static string ServerDll() => BuiltDll("FileTransfer.Server", "src");

    /// <summary>A project's dll the solution built next to this harness (same configuration).</summary>
    private static string BuiltDll(string project, string folder)
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "FileTransfer.sln")))
            {
                var configuration = AppContext.BaseDirectory.Contains("/Debug/", StringComparison.Ordinal) ? "Debug" : "Release";
                var dll = Path.Combine(dir.FullName, folder, project, "bin", configuration, "net10.0", project + ".dll");
                return File.Exists(dll) ? dll : throw new FileNotFoundException("Build the solution first: dotnet build -c " + configuration, dll);
            }
        }

        throw new InvalidOperationException("FileTransfer.sln not found above " + AppContext.BaseDirectory);
    }
}
