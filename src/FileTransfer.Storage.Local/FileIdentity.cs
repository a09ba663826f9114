using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Storage.Local;

/// <summary>
/// Which file a name or a handle is, as Linux's statx(2) tells it: device, inode, size, and the
/// modification and change times to the nanosecond. Two equal identities are the same bytes: a
/// replace renames a new inode over the name, a delete unlinks it, and a write in place (by any
/// process) moves the change time, which no caller can set back. Linux only.
/// </summary>
internal readonly record struct FileIdentity(ulong Device, ulong Inode, long Size, long ModifiedSeconds, uint ModifiedNanoseconds, long ChangedSeconds, uint ChangedNanoseconds)
{
    private const int CurrentFolder = -100; // AT_FDCWD
    private const int EmptyPath = 0x1000; // AT_EMPTY_PATH: the descriptor itself
    private const uint BasicStats = 0x7ff; // STATX_BASIC_STATS
    private const ushort TypeMask = 0xf000; // S_IFMT
    private const ushort RegularFile = 0x8000; // S_IFREG

    /// <summary>The file <paramref name="path"/> names now, through links; false when there is none or it is not a regular file.</summary>
    public static bool TryOf(string path, out FileIdentity identity) =>
        From(Statx(CurrentFolder, path, 0, BasicStats, out var buffer), buffer, out identity);

    /// <summary>The file <paramref name="handle"/> holds open.</summary>
    public static bool TryOf(SafeFileHandle handle, out FileIdentity identity)
    {
        var added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            return From(Statx((int)handle.DangerousGetHandle(), string.Empty, EmptyPath, BasicStats, out var buffer), buffer, out identity);
        }
        finally
        {
            if (added)
            {
                handle.DangerousRelease();
            }
        }
    }

    private static bool From(int result, in StatxBuffer buffer, out FileIdentity identity)
    {
        identity = default;
        if (result != 0 || (buffer.Mode & TypeMask) != RegularFile)
        {
            return false;
        }

        identity = new(
            ((ulong)buffer.DeviceMajor << 32) | buffer.DeviceMinor,
            buffer.Inode,
            (long)buffer.Size,
            buffer.ModifiedSeconds,
            buffer.ModifiedNanoseconds,
            buffer.ChangedSeconds,
            buffer.ChangedNanoseconds);
        return true;
    }

    [DllImport("libc", EntryPoint = "statx", SetLastError = true)]
    private static extern int Statx(int folder, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags, uint mask, out StatxBuffer buffer);

    /// <summary><c>struct statx</c> (linux/stat.h): one layout on every architecture, 256 bytes.</summary>
    [StructLayout(LayoutKind.Explicit, Size = 256)]
    private struct StatxBuffer
    {
        [FieldOffset(28)] public ushort Mode;
        [FieldOffset(32)] public ulong Inode;
        [FieldOffset(40)] public ulong Size;
        [FieldOffset(96)] public long ChangedSeconds;
        [FieldOffset(104)] public uint ChangedNanoseconds;
        [FieldOffset(112)] public long ModifiedSeconds;
        [FieldOffset(120)] public uint ModifiedNanoseconds;
        [FieldOffset(136)] public uint DeviceMajor;
        [FieldOffset(140)] public uint DeviceMinor;
    }
}
