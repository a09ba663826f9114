using System.Diagnostics;
using FileTransfer.Benchmarks.E2E.Cases;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E;

/// <summary>Records the run, generates the files, starts the servers, runs the chosen cases and writes the report.</summary>
internal sealed class Harness(HarnessOptions options)
{
    public async Task<int> RunAsync()
    {
        var repository = Builds.Repository();
        var run = await RunInfo.CollectAsync(repository);
        await using var load = new LoadMonitor(TimeSpan.FromSeconds(5));
        Console.Error.WriteLine($"[run] {run.ShortCommit}{(run.Dirty ? " (dirty)" : "")}, load {load.Before:0.00} before start (quiet below {options.MaxLoad:0.0#}), {run.Cores} × {run.CpuModel}");
        var work = options.WorkDirectory ?? Path.Combine(Path.GetTempPath(), "filetransfer-bench-" + Guid.NewGuid().ToString("N")[..8]);
        var results = new List<CaseResult>();
        if (options.WorkDirectory is null)
        {
            SignalStop.OwnWorkFolder(work);
        }

        var context = new BenchContext(options, new Measurer(options, results), work);
        var cases = CaseCatalog.All.Where(c => options.Cases.Contains(c.Name)).ToList();
        var stopwatch = Stopwatch.StartNew();
        try
        {
            await PrepareAsync(context, cases.Aggregate(CasePeers.None, (peers, c) => peers | c.Peers));
            foreach (var benchmarkCase in cases)
            {
                Console.Error.WriteLine($"[case] {benchmarkCase.Name} (load {LoadMonitor.Read():0.00})");
                if (benchmarkCase != cases[0])
                {
                    await context.RestartOursAsync();
                }

                await benchmarkCase.RunAsync(context);
            }
        }
        finally
        {
            stopwatch.Stop();
            if (options.OutDirectory is { } output)
            {
                await OutputFiles.WritePeersAndLogsAsync(context, output);
            }

            // Also when starting one of them failed: no server outlives the harness.
            foreach (var server in context.AllServers)
            {
                await server.DisposeAsync();
            }

            SignalStop.DeleteWorkFolder();
        }

        var command = "dotnet run -c Release --project benchmarks/FileTransfer.Benchmarks.E2E -- " + string.Join(' ', options.CommandLine);
        var report = MarkdownReport.Write(new ReportInput(options, run, load.Before, load.During(), stopwatch.Elapsed, command.TrimEnd(), results, context.AllServers.ToList()));
        Console.WriteLine(report);
        if (options.OutDirectory is { } outDirectory)
        {
            await File.WriteAllTextAsync(Path.Combine(outDirectory, "report.md"), report);
            await OutputFiles.WriteRunsAsync(results, Path.Combine(outDirectory, "runs.csv"));
            await Chart.WriteAsync(results, outDirectory);
        }

        var failed = results.Where(r => r.Error is not null).ToList();
        Console.Error.WriteLine(failed.Count == 0
            ? $"benchmark: {results.Count(r => r.Skipped is null)} cases completed with correct bytes, {results.Count(r => r.Skipped is not null)} skipped, in {stopwatch.Elapsed:hh\\:mm\\:ss}"
            : $"benchmark: {failed.Count} case(s) FAILED: {string.Join("; ", failed.Select(f => f.Key + ": " + f.Error))}");
        return failed.Count == 0 ? 0 : 1;
    }

    private async Task PrepareAsync(BenchContext context, CasePeers peers)
    {
        var files = context.FilesDirectory;
        context.Large = await TestFiles.CreateAsync(files, "large.bin", options.Size);
        context.Table = options.Cases.Contains("grpc") && options.TableSize != options.Size
            ? await TestFiles.CreateAsync(files, "table.bin", options.TableSize)
            : context.Large;
        context.Concurrent = await TestFiles.CreateAsync(files, "concurrent.bin", options.ConcurrentSize);
        context.Small1K = await TestFiles.CreateAsync(files, "small-1k.bin", 1024);
        context.Small64K = await TestFiles.CreateAsync(files, "small-64k.bin", 64 * 1024);
        var oursRoot = context.OursRoot;
        var nginxRoot = Path.Combine(context.WorkDirectory, "nginx-root");
        foreach (var file in new[] { context.Large, context.Table, context.Concurrent, context.Small1K, context.Small64K }.Distinct())
        {
            await TestFiles.LinkIntoAsync(file, Path.Combine(oursRoot, BenchContext.Folder));
            await TestFiles.LinkIntoAsync(file, Path.Combine(nginxRoot, BenchContext.Folder));
        }

        context.Ours = await OurServer.StartProductAsync("ours", context.OursBuild, oursRoot, options.ServerEnvironment);
        Console.Error.WriteLine($"[ours] {context.Ours.Http1} (HTTP/1.1), {context.Ours.Http2} (h2c); /debug/runtime costs {context.Ours.ReadingOverheadBytes} B per reading");
        if (options.BaselineEnvironment.Count > 0 || options.BaselineServer is not null)
        {
            // Same root as ours: the same files, read from the same inodes.
            context.Baseline = await context.StartOursAsync("ours-before", options.BaselineServer ?? context.OursBuild, options.BaselineEnvironment);
        }

        if (peers.HasFlag(CasePeers.PublishedGrpc))
        {
            // The published services serve the same root (the same inodes), each from its own process.
            context.Naive = await OurServer.StartPublishedAsync(GrpcCases.Naive, Builds.PublishedGrpcDll(), oursRoot, "naive");
            context.Optimized = await OurServer.StartPublishedAsync(GrpcCases.Optimized, Builds.PublishedGrpcDll(), oursRoot, "optimized");
        }

        if (peers.HasFlag(CasePeers.PythonGrpc))
        {
            context.PythonMissing = await PythonGrpcServer.MissingAsync();
            if (context.PythonMissing is null)
            {
                var script = Path.Combine(context.Repository, "benchmarks", "python-grpc", "server.py");
                context.Python = await PythonGrpcServer.StartAsync(script, oursRoot, workers: Math.Max(options.ConcurrentCounts.DefaultIfEmpty(1).Max(), options.ConcurrentUploads) + 16);
                Console.Error.WriteLine($"[{PythonGrpcServer.ServerName}] {context.Python.Http2} (h2c)");
            }
        }

        if (peers.HasFlag(CasePeers.KestrelBare) && options.KestrelBare is { } kestrelBare)
        {
            context.KestrelBare = await KestrelBareServer.StartAsync(kestrelBare, oursRoot);
            Console.Error.WriteLine($"[{KestrelBareServer.ServerName}] {context.KestrelBare.Http1} (HTTP/1.1), {context.KestrelBare.Http2} (h2c)");
        }

        if (ExternalTool.Find("nginx") is not { } nginx)
        {
            context.NginxMissing = "nginx is not installed (apt-get install nginx-light)";
        }
        else
        {
            context.Nginx = await NginxServer.StartAsync(nginx, Path.Combine(context.WorkDirectory, "nginx"), nginxRoot, accessLog: false);
            context.NginxLog = await NginxServer.StartAsync(nginx, Path.Combine(context.WorkDirectory, "nginx-log"), nginxRoot, accessLog: true);
            Console.Error.WriteLine($"[nginx] {context.Nginx.Http1} (HTTP/1.1), {context.Nginx.Http2} (h2c); [nginx-log] {context.NginxLog.Http1}, {context.NginxLog.Http2}");
        }
    }
}
