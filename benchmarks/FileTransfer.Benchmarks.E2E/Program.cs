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

// A signal must end the run at once, without its finally blocks (SIGTERM's default in .NET would let
// the harness go on and fail every remaining row): stop the servers it started, remove its work
// folder, and exit with the shell's code for the signal. The run itself may reach its end meanwhile
// (every row fails fast once the servers are gone); it then waits for the handler's exit.
var signalled = 0;
using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => StopOnSignal(130));
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => StopOnSignal(143));

try
{
    return await new Harness(options).RunAsync();
}
finally
{
    if (Volatile.Read(ref signalled) != 0)
    {
        Thread.Sleep(Timeout.Infinite);
    }
}

void StopOnSignal(int exitCode)
{
    if (Interlocked.Exchange(ref signalled, 1) != 0)
    {
        return;
    }

    try
    {
        ServerUnderTest.KillRunning();
        Harness.DeleteTemporaryWork();
        Console.Error.WriteLine($"benchmark: stopped by a signal; servers stopped, work folder removed (exit {exitCode})");
    }
    catch (Exception e)
    {
        Console.Error.WriteLine($"benchmark: stopped by a signal; cleaning up failed: {e.Message}");
    }
    finally
    {
        Environment.Exit(exitCode);
    }
}
