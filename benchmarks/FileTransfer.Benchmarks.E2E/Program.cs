using System.Runtime.InteropServices;
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

// A signal ends the process without running its finally blocks: stop the servers it started first
// (the default action, ending the process, follows the handler).
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => ServerUnderTest.KillRunning());
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => ServerUnderTest.KillRunning());

return await new Harness(options).RunAsync();
