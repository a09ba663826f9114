namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>Whether this process (and so an in-process server) holds a file open, from Linux's /proc/self/fd.</summary>
public static class OpenFiles
{
    public static bool IsOpen(string path)
    {
        foreach (var descriptor in Directory.EnumerateFileSystemEntries("/proc/self/fd"))
        {
            try
            {
                if (new FileInfo(descriptor).LinkTarget == path)
                {
                    return true;
                }
            }
            catch (IOException)
            {
                // Closed while we looked.
            }
        }

        return false;
    }

    public static async Task<bool> WaitUntilClosedAsync(string path, TimeSpan timeout)
    {
        var end = DateTime.UtcNow + timeout;
        while (IsOpen(path))
        {
            if (DateTime.UtcNow > end)
            {
                return false;
            }

            await Task.Delay(50);
        }

        return true;
    }
}
