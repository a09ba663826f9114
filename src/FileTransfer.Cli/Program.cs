namespace FileTransfer.Cli;

internal static class Program
{
    public static Task<int> Main(string[] args) =>
        FileTransferCommand.RunAsync(args, CliConsole.FromSystemConsole(), Environment.GetEnvironmentVariable);
}
