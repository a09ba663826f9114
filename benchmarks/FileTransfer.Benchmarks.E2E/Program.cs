using System.Runtime.Versioning;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E;

// The harness reads /proc and drives nginx, curl, h2load and wrk: Linux only.
[assembly: SupportedOSPlatform("linux")]

if (args.Contains("--help") || args.Contains("-h"))
{
    Console.WriteLine(HarnessOptions.Usage);
    return 0;
}

HarnessOptions options;
try
{
    options = HarnessOptions.Parse(args);
}
catch (Exception e) when (e is ArgumentException or FormatException)
{
    Console.Error.WriteLine(e.Message);
    Console.Error.WriteLine(HarnessOptions.Usage);
    return 2;
}

// Ctrl+C or a kill stops the servers the run started and removes its work folder (SignalStop).
using var signals = SignalStop.Register();

try
{
    return await new Harness(options).RunAsync();
}
finally
{
    SignalStop.WaitIfStopping();
}
