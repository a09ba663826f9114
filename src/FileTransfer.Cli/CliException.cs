namespace FileTransfer.Cli;

/// <summary>A failure with the message the user sees and the exit code a script sees.</summary>
internal sealed class CliException(int exitCode, string message, Exception? inner = null) : Exception(message, inner)
{
    public int ExitCode { get; } = exitCode;
}
