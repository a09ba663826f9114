using System.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>Runs a third-party client (curl, nghttp, h2load) installed by scripts/install-test-deps.sh.</summary>
public static class ExternalTool
{
    /// <summary>The key third-party clients send: the one the test factories configure with every scope.</summary>
    public const string ApiKey = FileTransferFactory.TestKey;

    /// <summary>The header as curl and nghttp take it.</summary>
    public const string AuthorizationHeader = "Authorization: Bearer " + ApiKey;

    /// <summary>Exit code, standard output as raw bytes (bodies are binary), standard error as text.</summary>
    public static async Task<(int ExitCode, byte[] Output, string Error)> RunAsync(string tool, params string[] arguments)
    {
        var start = new ProcessStartInfo(tool, arguments) { RedirectStandardError = true, RedirectStandardOutput = true };
        using var process = Process.Start(start)!;
        using var output = new MemoryStream();
        var copy = process.StandardOutput.BaseStream.CopyToAsync(output, TestTimeout.Token);
        var error = process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        await copy;
        return (process.ExitCode, output.ToArray(), await error);
    }
}
