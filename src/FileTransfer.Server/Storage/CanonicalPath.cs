using System.Runtime.InteropServices;

namespace FileTransfer.Server.Storage;

/// <summary>
/// Resolves a path the way the operating system will when it opens it: every symbolic link
/// followed, "." and ".." removed. Parts that do not exist yet (an upload's target) cannot be
/// links, so they are appended to the canonical form of the deepest part that does exist.
/// </summary>
internal static partial class CanonicalPath
{
    public static string Resolve(string fullPath)
    {
        var existing = Path.TrimEndingDirectorySeparator(fullPath);
        var missingTail = new Stack<string>();
        while (!Path.Exists(existing) && !IsDanglingLink(existing))
        {
            var parent = Path.GetDirectoryName(existing);
            if (parent is null)
            {
                return fullPath;
            }

            missingTail.Push(Path.GetFileName(existing));
            existing = parent;
        }

        var resolved = RealPath(existing);
        return missingTail.Count == 0 ? resolved : Path.Join([resolved, .. missingTail]);
    }

    // A link whose target is gone reports Exists == false; it still must not be written through.
    private static bool IsDanglingLink(string path) => new FileInfo(path).LinkTarget is not null;

    private static string RealPath(string path)
    {
        if (!OperatingSystem.IsWindows())
        {
            var resolved = NativeRealPath(path, IntPtr.Zero);
            if (resolved != IntPtr.Zero)
            {
                try
                {
                    return Marshal.PtrToStringUTF8(resolved)!;
                }
                finally
                {
                    NativeFree(resolved);
                }
            }

            // realpath fails on a dangling link: report where the link points, which lies outside
            // the root or nowhere; either way the caller refuses it.
            var info = new FileInfo(path);
            return info.LinkTarget is { } target ? Path.GetFullPath(target, Path.GetDirectoryName(path)!) : path;
        }

        var link = new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true);
        return link?.FullName ?? Path.GetFullPath(path);
    }

    [LibraryImport("libc", EntryPoint = "realpath", StringMarshalling = StringMarshalling.Utf8)]
    private static partial IntPtr NativeRealPath(string path, IntPtr resolved);

    [LibraryImport("libc", EntryPoint = "free")]
    private static partial void NativeFree(IntPtr pointer);
}
