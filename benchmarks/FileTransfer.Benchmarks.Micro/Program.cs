using BenchmarkDotNet.Running;
using FileTransfer.Benchmarks.Micro;

// "alloc-report TRACE.nettrace [N]": the allocation profile of a dotnet-trace capture (see AllocationReport).
if (args is ["alloc-report", var trace, ..])
{
    return AllocationReport.Print(trace, args.Length > 2 ? int.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture) : 25);
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
return 0;
