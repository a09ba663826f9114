using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace FileTransfer.Client.Transfers;

/// <summary>
/// The unfinished uploads a client remembers, one small file per upload in a folder: the session id
/// under a key made of the server, the name, and the local file's path, size and modification time,
/// so that only the same file (unchanged) continues the same upload.
/// </summary>
internal sealed class ResumeState(string directory)
{
    public string? Find(string key)
    {
        var path = PathOf(key);
        return File.Exists(path) ? File.ReadAllText(path).Trim() : null;
    }

    public void Remember(string key, string uploadId)
    {
        Directory.CreateDirectory(directory);
        var path = PathOf(key);

        // Written whole, then renamed: a client killed meanwhile leaves the old state or the new one.
        File.WriteAllText(path + ".tmp", uploadId);
        File.Move(path + ".tmp", path, overwrite: true);
    }

    public void Forget(string key) => File.Delete(PathOf(key));

    public static string KeyOf(Uri server, string name, string localPath)
    {
        var file = new FileInfo(localPath);
        var text = string.Join('\n', server.AbsoluteUri, name, file.FullName, file.Length.ToString(CultureInfo.InvariantCulture), file.LastWriteTimeUtc.Ticks.ToString(CultureInfo.InvariantCulture));
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));
    }

    private string PathOf(string key) => Path.Combine(directory, key + ".upload");
}
