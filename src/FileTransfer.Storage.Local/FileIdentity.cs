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
    /// <summary>AT_FDCWD: where <see cref="Probe"/> is given an absolute path, not a descriptor to start from.</summary>
    public const int CurrentFolder = -100;

    private const int NoFollow = 0x100; // AT_SYMLINK_NOFOLLOW: a link at the end is looked at, not followed
    private const int EmptyPath = 0x1000; // AT_EMPTY_PATH: the descriptor itself
    private const uint BasicStats = 0x7ff; // STATX_BASIC_STATS
    private const ushort TypeMask = 0xf000; // S_IFMT
    private const ushort RegularFile = 0x8000; // S_IFREG
    private const ushort Folder = 0x4000; // S_IFDIR
    private const ushort SymbolicLink = 0xa000; // S_IFLNK
    private const int NoSuchEntry = 2; // ENOENT
    private const int NotAFolder = 20; // ENOTDIR: a part of the path before the last is a file

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

    /// <summary>
    /// What the NUL-terminated UTF-8 <paramref name="path"/> itself is, a link at its end not followed;
    /// <paramref name="identity"/> is set for a regular file. No string is marshalled: the caller
    /// probes each prefix of one buffer in turn (<see cref="LinkFreeWalk"/>). A relative path starts at
    /// the folder open as <paramref name="folder"/>, a descriptor the caller keeps open for the call;
    /// an absolute one is given with <see cref="CurrentFolder"/>.
    /// </summary>
    public static PathEntry Probe(int folder, ReadOnlySpan<byte> path, out FileIdentity identity)
    {
        var result = Statx(folder, ref MemoryMarshal.GetReference(path), NoFollow, BasicStats, out var buffer);
        if (result != 0)
        {
            identity = default;
            return Marshal.GetLastPInvokeError() is NoSuchEntry or NotAFolder ? PathEntry.Missing : PathEntry.Unknown;
        }

        var kind = (buffer.Mode & TypeMask) switch
        {
            RegularFile => PathEntry.RegularFile,
            Folder => PathEntry.Folder,
            SymbolicLink => PathEntry.Link,
            _ => PathEntry.Other,
        };
        From(result, buffer, out identity);
        return kind;
    }

    /// <summary>Whether <paramref name="path"/> names, through links, the folder <paramref name="folder"/> holds open.</summary>
    public static bool IsSameFolder(string path, SafeFileHandle folder)
    {
        var added = false;
        try
        {
            folder.DangerousAddRef(ref added);
            return Statx(CurrentFolder, path, 0, BasicStats, out var named) == 0
                && Statx((int)folder.DangerousGetHandle(), string.Empty, EmptyPath, BasicStats, out var held) == 0
                && (named.Mode & TypeMask) == Folder
                && (named.Inode, named.DeviceMajor, named.DeviceMinor) == (held.Inode, held.DeviceMajor, held.DeviceMinor);
        }
        finally
        {
            if (added)
            {
                folder.DangerousRelease();
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

    [DllImport("libc", EntryPoint = "statx", SetLastError = true)]
    private static extern int Statx(int folder, ref byte path, int flags, uint mask, out StatxBuffer buffer);

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
