namespace FileTransfer.Storage.Local;

/// <summary>
/// Strong validators from size and modification time, as nginx and Apache derive them
/// (<c>"8df4...-3200000"</c>). RFC 9110 8.8.3: a strong ETag must change whenever the bytes change;
/// every replace through this server is a new file with a new, strictly later modification time
/// (<see cref="LocalStorageBackend"/>'s commit), so that holds.
/// </summary>
internal static class LocalETags
{
    public static string For(long size, DateTimeOffset lastModified) =>
        $"\"{lastModified.UtcTicks:x}-{size:x}\"";
}
