using System.Text;
using FileTransfer.Core.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using Microsoft.Win32.SafeHandles;

namespace FileTransfer.Core.Tests.Local;

/// <summary>
/// The resolver's fast path on Linux, both ways it looks up a name's segments: relative to a descriptor
/// of the root (the server's way) and, when the root could not be opened, by absolute path. Each answer
/// must be the same either way: a link anywhere below the root sends the name to the full resolution.
/// </summary>
public sealed class LinkFreeWalkTests : IDisposable
{
    private readonly TempFolder _folder = new();
    private readonly string _root;
    private readonly SafeFileHandle _rootFolder;

    public LinkFreeWalkTests()
    {
        // Some levels above the root, as a deployed root has: a relative probe must not need them.
        _root = CanonicalPath.Resolve(Path.Combine(_folder.Path, "a", "b", "root"))!;
        Directory.CreateDirectory(_root);
        _rootFolder = FolderDescriptor.TryOpen(_root)!;
        Assert.NotNull(_rootFolder);

        Directory.CreateDirectory(PathOf("dir/sub"));
        File.WriteAllBytes(PathOf("dir/sub/file.bin"), [1, 2, 3]);
        File.WriteAllBytes(PathOf("top.bin"), [4, 5]);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_Link_At_The_First_Segment_Is_Found(bool fromDescriptor)
    {
        Directory.CreateSymbolicLink(PathOf("alias"), PathOf("dir"));
        File.CreateSymbolicLink(PathOf("top-link.bin"), PathOf("top.bin"));

        Assert.False(Walk(fromDescriptor, "alias/sub/file.bin", out _));
        Assert.False(Walk(fromDescriptor, "alias", out _));
        Assert.False(Walk(fromDescriptor, "top-link.bin", out _));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_Link_At_A_Middle_Or_Last_Segment_Is_Found(bool fromDescriptor)
    {
        Directory.CreateSymbolicLink(PathOf("dir/alias"), PathOf("dir/sub"));
        Directory.CreateSymbolicLink(PathOf("dir/dangling"), PathOf("nowhere"));
        File.CreateSymbolicLink(PathOf("dir/sub/file-link.bin"), PathOf("dir/sub/file.bin"));

        Assert.False(Walk(fromDescriptor, "dir/alias/file.bin", out _));
        Assert.False(Walk(fromDescriptor, "dir/dangling/new.bin", out _));
        Assert.False(Walk(fromDescriptor, "dir/sub/file-link.bin", out _));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_Regular_Files_Identity_Is_What_Its_Full_Path_Names(bool fromDescriptor)
    {
        Assert.True(Walk(fromDescriptor, "dir/sub/file.bin", out var file));
        Assert.True(FileIdentity.TryOf(PathOf("dir/sub/file.bin"), out var expected));
        Assert.Equal(expected, file);

        Assert.True(Walk(fromDescriptor, "top.bin", out file));
        Assert.True(FileIdentity.TryOf(PathOf("top.bin"), out expected));
        Assert.Equal(expected, file);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Missing_Names_Folders_And_Names_Below_A_File_Pass_Without_A_File(bool fromDescriptor)
    {
        Assert.True(Walk(fromDescriptor, "dir/sub/file.bin/x", out var file));
        Assert.Null(file);
        Assert.True(Walk(fromDescriptor, "top.bin/x/y", out file));
        Assert.Null(file);
        Assert.True(Walk(fromDescriptor, "dir/new/upload.bin", out file));
        Assert.Null(file);
        Assert.True(Walk(fromDescriptor, "new.bin", out file));
        Assert.Null(file);
        Assert.True(Walk(fromDescriptor, "dir/sub", out file));
        Assert.Null(file);
    }

    [Fact]
    public void Names_Are_Looked_Up_From_The_Descriptor_Not_From_The_Roots_Path()
    {
        // The root's folder renamed and another made at its path with a link in it: the descriptor still
        // stands for the first folder (until RootFolder checks it), while the path names the new one.
        Directory.Move(_root, _root + "-old");
        Directory.CreateDirectory(_root);
        Directory.CreateSymbolicLink(PathOf("dir"), _folder.Path);

        Assert.True(Walk(fromDescriptor: true, "dir/sub/file.bin", out var file));
        Assert.True(FileIdentity.TryOf(Path.Join(_root + "-old", "dir", "sub", "file.bin"), out var expected));
        Assert.Equal(expected, file);
        Assert.False(Walk(fromDescriptor: false, "dir/sub/file.bin", out _));
    }

    [Fact]
    public void A_Root_Folder_Replaced_While_Running_Is_Opened_Anew_At_The_Next_Check()
    {
        using var checkedEachTime = new RootFolder(_root, checkEveryMilliseconds: 0);
        using var checkedHourly = new RootFolder(_root, checkEveryMilliseconds: 3_600_000);
        Assert.True(FileIdentity.IsSameFolder(_root, checkedEachTime.Current!));
        Directory.Move(_root, _root + "-old");
        Directory.CreateDirectory(_root);
        Directory.CreateSymbolicLink(PathOf("dir"), _folder.Path);

        // Until its check, a root folder still stands for the old one; after it, for the new one, whose link the walk sees.
        Assert.False(FileIdentity.IsSameFolder(_root, checkedHourly.Current!));
        Assert.True(FileIdentity.IsSameFolder(_root, checkedEachTime.Current!));
        Assert.False(LinkFreeWalk.TryWalk(Encoding.UTF8.GetBytes(_root), checkedEachTime.Current, "dir/sub/file.bin", out _));
    }

    [Fact]
    public void A_Descriptor_Disposed_Meanwhile_Walks_By_The_Absolute_Path()
    {
        var replaced = FolderDescriptor.TryOpen(_root)!;
        replaced.Dispose();
        Directory.CreateSymbolicLink(PathOf("alias"), PathOf("dir"));

        Assert.True(LinkFreeWalk.TryWalk(Encoding.UTF8.GetBytes(_root), replaced, "dir/sub/file.bin", out var file));
        Assert.True(FileIdentity.TryOf(PathOf("dir/sub/file.bin"), out var expected));
        Assert.Equal(expected, file);
        Assert.False(LinkFreeWalk.TryWalk(Encoding.UTF8.GetBytes(_root), replaced, "alias/sub/file.bin", out _));
    }

    [Fact]
    public void Only_A_Folder_Opens_As_A_Root_Descriptor()
    {
        Assert.Null(FolderDescriptor.TryOpen(PathOf("missing")));
        Assert.Null(FolderDescriptor.TryOpen(PathOf("top.bin")));
        using var folder = FolderDescriptor.TryOpen(PathOf("dir"));
        Assert.NotNull(folder);
    }

    public void Dispose()
    {
        _rootFolder.Dispose();
        _folder.Dispose();
    }

    private string PathOf(string name) => Path.Join([_root, .. name.Split('/')]);

    private bool Walk(bool fromDescriptor, string name, out FileIdentity? file) =>
        LinkFreeWalk.TryWalk(Encoding.UTF8.GetBytes(_root), fromDescriptor ? _rootFolder : null, name, out file);
}
