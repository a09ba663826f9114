using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// The development key, kept across restarts so that <c>FILETRANSFER_API_KEY</c> and a Kreya
/// environment stay valid: one file per storage location (named by the SHA-256 of the backend's
/// <see cref="IStorageBackend.Location"/>: the root's canonical path, or an object store's
/// <c>s3://host:port/bucket/prefix/</c>) in a per-user folder that the backend does not serve, the
/// folder 0700 and the file 0600. Used only in Development (<see cref="ApiKeyStore"/>); no other
/// environment reads or writes it.
/// </summary>
internal static class DevelopmentKeyFile
{
    /// <summary>Log category of the one log line that shows a key (exempt from redaction).</summary>
    public const string LogCategory = "FileTransfer.Server.Security.DevelopmentKey";

    private const UnixFileMode OwnerOnlyFolder = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode OwnerOnlyFile = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    private const UnixFileMode GroupOrOther = (UnixFileMode)0b000_111_111;

    /// <summary>
    /// <c>$XDG_DATA_HOME/FileTransfer/development-keys</c> (<c>~/.local/share/...</c>) on Linux,
    /// <c>%LOCALAPPDATA%\FileTransfer\development-keys</c> on Windows; null when the user has no data folder.
    /// </summary>
    public static string? DefaultFolder()
    {
        var data = Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.DoNotVerify);
        return string.IsNullOrEmpty(data) ? null : Path.Combine(data, "FileTransfer", "development-keys");
    }

    /// <summary>The file that holds the key for the store at <paramref name="location"/> (<see cref="IStorageBackend.Location"/>) in <paramref name="folder"/>.</summary>
    public static string PathFor(string folder, string location) =>
        Path.Combine(Path.GetFullPath(folder), Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(location)))[..32] + ".key");

    /// <summary>
    /// The key stored for <paramref name="storage"/>, created when there is none or the file
    /// cannot be trusted; a key for this process only when nothing can be stored safely.
    /// </summary>
    public static DevelopmentKey LoadOrCreate(string? folder, IStorageBackend storage)
    {
        var fresh = Base64Url.EncodeToString(RandomNumberGenerator.GetBytes(32));
        if (folder is null)
        {
            return DevelopmentKey.NotStored(fresh, "there is no per-user data folder (set Auth:DevelopmentKeyFolder)");
        }

        var file = PathFor(folder, storage.Location);
        var directory = Path.GetDirectoryName(file)!;

        // What the backend serves could be downloaded with the anonymous reads that Development
        // allows; the backend judges with its own path rules (an object store serves no local folder).
        if (storage is ILocalFolderBackend local && local.MayServe(directory))
        {
            return DevelopmentKey.NotStored(fresh, $"its folder {directory} is inside the storage root (or its links cannot be resolved)");
        }

        try
        {
            if (!EnsureOwnerOnlyFolder(directory, out var problem))
            {
                return DevelopmentKey.NotStored(fresh, problem);
            }

            var replaced = ReadTrusted(file, out var stored);
            if (stored is not null)
            {
                return new DevelopmentKey(stored, file, "read from an earlier run");
            }

            if (TryCreate(file, fresh, overwrite: replaced is not null))
            {
                return new DevelopmentKey(fresh, file, replaced is null ? "created now" : $"created now, replacing a file that {replaced}");
            }

            // Another process started on the same root at the same moment and stored its key first.
            ReadTrusted(file, out stored);
            return stored is not null
                ? new DevelopmentKey(stored, file, "read from an earlier run")
                : DevelopmentKey.NotStored(fresh, $"{file} could not be created");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return DevelopmentKey.NotStored(fresh, $"{directory} is not usable: {e.Message}");
        }
    }

    private static bool EnsureOwnerOnlyFolder(string directory, out string problem)
    {
        problem = "";
        if (OperatingSystem.IsWindows())
        {
            // %LOCALAPPDATA% is readable by its user only (its ACL); Unix modes do not apply.
            Directory.CreateDirectory(directory);
            return true;
        }

        if (!Directory.Exists(directory))
        {
            Directory.CreateDirectory(directory, OwnerOnlyFolder);
        }

        // An existing folder others can enter or write to is not ours to chmod: someone could
        // swap the key for one they know. Refuse it instead.
        var mode = File.GetUnixFileMode(directory);
        if ((mode & GroupOrOther) != 0 || new DirectoryInfo(directory).LinkTarget is not null)
        {
            problem = $"the folder {directory} is a link or open to other users (mode {Convert.ToString((int)mode, 8)}; it must be 700)";
            return false;
        }

        return true;
    }

    /// <summary>
    /// Reads the stored key into <paramref name="key"/>. Returns why an existing file was not
    /// trusted (it is then replaced), or null when there is no file or it was trusted.
    /// </summary>
    private static string? ReadTrusted(string file, out string? key)
    {
        key = null;
        var info = new FileInfo(file);
        if (!info.Exists && info.LinkTarget is null)
        {
            return null;
        }

        if (info.LinkTarget is not null)
        {
            return "was a symbolic link";
        }

        if (!OperatingSystem.IsWindows() && (info.UnixFileMode & GroupOrOther) != 0)
        {
            return $"other users could read (mode {Convert.ToString((int)info.UnixFileMode, 8)})";
        }

        var text = File.ReadAllText(file).Trim();
        if (text.Length != 43 || !Base64Url.IsValid(text))
        {
            return "did not hold a key";
        }

        key = text;
        return null;
    }

    // Written to a temporary file created 0600, then renamed: a reader never sees half a key.
    private static bool TryCreate(string file, string key, bool overwrite)
    {
        var temporary = file + "." + Guid.NewGuid().ToString("N") + ".tmp";
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = OwnerOnlyFile;
        }

        try
        {
            using (var stream = new FileStream(temporary, options))
            {
                stream.Write(Encoding.ASCII.GetBytes(key + "\n"));
                stream.Flush(flushToDisk: true);
            }

            File.Move(temporary, file, overwrite);
            return true;
        }
        catch (IOException) when (!overwrite && File.Exists(file))
        {
            return false;
        }
        finally
        {
            File.Delete(temporary);
        }
    }
}

/// <summary>The development key and where it is kept.</summary>
/// <param name="Key">The key (256 random bits, base64url).</param>
/// <param name="FilePath">The file it is stored in, or null when it lives only in this process.</param>
/// <param name="Origin">How this run got it ("created now", "read from an earlier run"), or why it is not stored.</param>
internal sealed record DevelopmentKey(string Key, string? FilePath, string Origin)
{
    public static DevelopmentKey NotStored(string key, string reason) => new(key, null, reason);
}
