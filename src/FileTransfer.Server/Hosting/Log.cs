using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Hosting;

internal static partial class Log
{
    public static void Started(ILogger logger, string storageRoot, ListeningEndpoints endpoints)
    {
        StorageRootInUse(logger, storageRoot);
        foreach (var (url, protocols) in endpoints.Addresses)
        {
            Listening(logger, url, protocols);
        }
    }

    [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Storage root: {StorageRoot}")]
    private static partial void StorageRootInUse(ILogger logger, string storageRoot);

    [LoggerMessage(EventId = 2, Level = LogLevel.Information, Message = "Listening on {Url} ({Protocols})")]
    private static partial void Listening(ILogger logger, Uri url, HttpProtocols protocols);
}
