namespace FileTransfer.Server.Security;

internal static partial class Log
{
    // EventIds 101 and 105 are the only log lines that show a key: the redaction of credentials in
    // logs (LogRedactor) lets exactly these two through, in the DevelopmentKeyFile.LogCategory category.
    public const int DevelopmentKeyStoredId = 101;
    public const int DevelopmentKeyNotStoredId = 105;

    [LoggerMessage(EventId = DevelopmentKeyStoredId, Level = LogLevel.Warning,
        Message = "No API key is configured: using the development key with every scope stored in {KeyFile} ({Origin}; owner-only, reused for this storage root across restarts). This is the one log line that shows a key; keys and links are redacted everywhere else. Use it as: Authorization: Bearer {Key}")]
    public static partial void DevelopmentKeyStored(ILogger logger, string keyFile, string origin, string key);

    [LoggerMessage(EventId = DevelopmentKeyNotStoredId, Level = LogLevel.Warning,
        Message = "No API key is configured: using a development key with every scope, valid until this process ends; it is not stored because {Reason}. This is the one log line that shows a key; keys and links are redacted everywhere else. Use it as: Authorization: Bearer {Key}")]
    public static partial void DevelopmentKeyNotStored(ILogger logger, string reason, string key);

    [LoggerMessage(EventId = 102, Level = LogLevel.Warning,
        Message = "Auth:SigningKey is not set: signed links use a random key and stop working when this process ends.")]
    public static partial void SigningKeyGenerated(ILogger logger);

    [LoggerMessage(EventId = 103, Level = LogLevel.Warning,
        Message = "No API key is configured (Auth:ApiKeys): requests to api/files are refused with 401{Except}.")]
    public static partial void NoApiKeys(ILogger logger, string except);

    [LoggerMessage(EventId = 104, Level = LogLevel.Debug, Message = "Rate limit reached for {Client}")]
    public static partial void RateLimited(ILogger logger, string client);
}
