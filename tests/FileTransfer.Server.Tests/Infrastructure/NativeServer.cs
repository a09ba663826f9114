namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The server as the container image runs it: one native executable published with Native AOT by
/// <c>scripts/publish-server.sh</c> (skipped while it is newer than the sources), once per test run.
/// </summary>
public static class NativeServer
{
    private static readonly Lazy<Task<string>> Published = new(PublishAsync);

    /// <summary>The path of <c>artifacts/server/FileTransfer.Server</c>, published first if it is missing or stale.</summary>
    public static Task<string> PathAsync() => Published.Value;

    private static async Task<string> PublishAsync()
    {
        // One to two minutes on a quiet machine: bounded well above that.
        await PublishScript.RunAsync("publish-server.sh", TimeSpan.FromMinutes(12));
        return Path.Combine(RepositoryPaths.Root, "artifacts", "server", "FileTransfer.Server");
    }
}
