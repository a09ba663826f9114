using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// A descriptor that stands for a folder without opening it for reading (open(2) with O_PATH): names
/// relative to it are looked up from it, so the kernel does not walk the folder's own path again
/// (<see cref="LinkFreeWalk"/>). Linux only.
/// </summary>
internal static class FolderDescriptor
{
    private const int PathOnly = 0x200000; // O_PATH: no read access needed, nothing read
    private const int CloseOnExec = 0x80000; // O_CLOEXEC: not inherited by a child process

    /// <summary>
    /// The folder <paramref name="path"/> names now, through links; null when it cannot be opened or is
    /// not a folder, and a caller looks up its names by the full path instead.
    /// </summary>
    public static SafeFileHandle? TryOpen(string path)
    {
        var descriptor = Open(path, PathOnly | CloseOnExec);
        if (descriptor < 0)
        {
            return null;
        }

        var handle = new SafeFileHandle(descriptor, ownsHandle: true);

        // Instead of O_DIRECTORY, whose value differs between architectures (x64 0x10000, Arm 0x4000):
        // a relative statx from a descriptor that is not a folder fails with ENOTDIR, which a probe
        // reads as a missing name, so only a folder is kept.
        if (FileIdentity.Probe(descriptor, ".\0"u8, out _) is PathEntry.Folder)
        {
            return handle;
        }

        handle.Dispose();
        return null;
    }

    // open(2) is variadic for its mode, which is read only with O_CREAT or O_TMPFILE: two arguments suffice.
    [DllImport("libc", EntryPoint = "open")]
    private static extern int Open([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags);
}
