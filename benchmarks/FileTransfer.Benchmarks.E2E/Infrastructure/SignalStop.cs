using System.Collections.Concurrent;
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// What a run must undo when Ctrl+C or a kill stops it: the servers it started and the work folder it
/// made. A signal ends the process without its finally blocks (and SIGTERM's default in .NET would let
/// the run go on and fail every remaining row), so the handler stops the servers, removes the folder
/// and exits with the shell's code for the signal. The run goes on meanwhile: a server it starts after
/// the handler began is killed at once, and a run that reaches its end waits for the handler's exit.
/// </summary>
internal static class SignalStop
{
    private static readonly ConcurrentDictionary<Process, byte> Running = new();

    private static volatile string? _workFolder;

    private static int _stopping;

    private static bool Stopping => Volatile.Read(ref _stopping) != 0;

    /// <summary>Handles SIGINT (exit 130) and SIGTERM (exit 143) until disposed.</summary>
    public static IDisposable Register() => new Registrations(
        PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => Stop(130)),
        PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => Stop(143)));

    /// <summary>A server process started by the run, until <see cref="Forget"/>.</summary>
    public static void Track(Process process)
    {
        Running[process] = 0;
        if (Stopping)
        {
            Kill(process);
        }
    }

    public static void Forget(Process process) => Running.TryRemove(process, out _);

    /// <summary>The folder the run made for itself (test files of several GiB), removed by <see cref="DeleteWorkFolder"/>.</summary>
    public static void OwnWorkFolder(string path) => _workFolder = path;

    /// <summary>Removes the run's own work folder, once, whether the run ends or a signal stops it.</summary>
    public static void DeleteWorkFolder()
    {
        if (Interlocked.Exchange(ref _workFolder, null) is not { } work)
        {
            return;
        }

        // A peer's child that has just been killed may still hold or write a file in it for a moment.
        for (var attempt = 1; Directory.Exists(work); attempt++)
        {
            try
            {
                Directory.Delete(work, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException && attempt < 5)
            {
                Thread.Sleep(200 * attempt);
            }
        }
    }

    /// <summary>Called when the run has ended: if a signal is stopping it, waits for the handler to exit the process.</summary>
    public static void WaitIfStopping()
    {
        if (Stopping)
        {
            Thread.Sleep(Timeout.Infinite);
        }
    }

    private static void Stop(int exitCode)
    {
        if (Interlocked.Exchange(ref _stopping, 1) != 0)
        {
            return;
        }

        try
        {
            foreach (var process in Running.Keys)
            {
                Kill(process);
            }

            DeleteWorkFolder();
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

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);

            // Gone before the handler removes the folders it wrote in.
            process.WaitForExit(TimeSpan.FromSeconds(5));
        }
        catch (Exception e) when (e is InvalidOperationException or Win32Exception)
        {
            // Gone already.
        }
    }

    private sealed class Registrations(params IDisposable[] registrations) : IDisposable
    {
        public void Dispose()
        {
            foreach (var registration in registrations)
            {
                registration.Dispose();
            }
        }
    }
}
