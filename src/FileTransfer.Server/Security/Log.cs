namespace FileTransfer.Server.Security;

internal static partial class Log
{
    [LoggerMessage(EventId = 101, Level = LogLevel.Warning,
        Message = "No API key is configured: generated a development key with every scope, valid until this process ends. Use it as: Authorization: Bearer {Key}")]
    public static partial void DevelopmentKeyGenerated(ILogger logger, string key);

    [LoggerMessage(EventId = 102, Level = LogLevel.Warning,
        Message = "Auth:SigningKey is not set: signed links use a random key and stop working when this process ends.")]
    public static partial void SigningKeyGenerated(ILogger logger);

    [LoggerMessage(EventId = 103, Level = LogLevel.Warning,
        Message = "No API key is configured (Auth:ApiKeys): requests to api/files are refused with 401{Except}.")]
    public static partial void NoApiKeys(ILogger logger, string except);

    [LoggerMessage(EventId = 104, Level = LogLevel.Debug, Message = "Rate limit reached for {Client}")]
    public static partial void RateLimited(ILogger logger, string client);
}
