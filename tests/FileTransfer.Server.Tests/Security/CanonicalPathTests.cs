using FileTransfer.Core;
using FileTransfer.Storage.Local;
using FileTransfer.Server.Tests.Storage;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Links resolved the way the OS resolves them, including the cases realpath(3) gives up on.</summary>
public sealed class CanonicalPathTests : IDisposable
{
    private readonly Sandbox _sandbox = new();

    [Fact]
    public void A_Chain_Whose_Last_Link_Dangles_Outside_Resolves_Outside()
    {
        var chain = Path.Combine(_sandbox.RootPath, "chain");

        Assert.Equal(Path.Combine(_sandbox.Path, "d", "e", "chain-outside"), CanonicalPath.Resolve(chain));
        Assert.False(Resolver().TryResolve("chain", out _, out var rejection));
        Assert.Equal(NameRejection.OutsideRoot, rejection);
    }

    [Fact]
    public void A_Loop_Cannot_Be_Resolved_And_Is_Refused()
    {
        Assert.Null(CanonicalPath.Resolve(Path.Combine(_sandbox.RootPath, "loop", "x")));
        Assert.False(Resolver().TryResolve("loop/x", out _, out var rejection));
        Assert.Equal(NameRejection.UnresolvableLink, rejection);
    }

    [Fact]
    public void Dot_Dot_In_A_Link_Target_Applies_After_The_Link_Before_It()
    {
        // "up -> escape/..": spelled out it looks like the root; the OS goes to the parent of
        // escape's target, which is outside.
        File.CreateSymbolicLink(Path.Combine(_sandbox.RootPath, "up"), "escape/..");

        Assert.Equal(Path.Combine(_sandbox.Path, "d", "e", "secret.txt"), CanonicalPath.Resolve(Path.Combine(_sandbox.RootPath, "up", "secret.txt")));
        Assert.False(Resolver().TryResolve("up/secret.txt", out _, out _));
    }

    [Fact]
    public void Dot_Dot_After_A_Missing_Folder_Is_Refused()
    {
        File.CreateSymbolicLink(Path.Combine(_sandbox.RootPath, "ghost"), "missing/../../..");

        Assert.Null(CanonicalPath.Resolve(Path.Combine(_sandbox.RootPath, "ghost", "new.bin")));
        Assert.False(Resolver().TryResolve("ghost/new.bin", out _, out _));
    }

    [Fact]
    public void A_Root_Reached_Through_A_Linked_Parent_Still_Accepts_Its_Own_Files()
    {
        var alias = Path.Combine(_sandbox.Path, "alias-of-d");
        Directory.CreateSymbolicLink(alias, Path.Combine(_sandbox.Path, "d"));
        using var resolver = PathResolverTests.Create(Path.Combine(alias, "e", "root"));

        Assert.True(resolver.TryResolve("inside/file.txt", out _, out _));
        Assert.True(resolver.TryResolve("new/upload.bin", out _, out _));
        Assert.False(resolver.TryResolve("escape/secret.txt", out _, out _));
    }

    [Fact]
    public void Missing_Parts_Are_Appended_As_Spelled()
    {
        var target = Path.Combine(_sandbox.RootPath, "inside-alias", "new", "deep.bin");

        Assert.Equal(Path.Combine(_sandbox.RootPath, "inside", "new", "deep.bin"), CanonicalPath.Resolve(target));
    }

    [Theory]
    [InlineData("CON", true)]
    [InlineData("con.txt", true)]
    [InlineData("LPT1", true)]
    [InlineData("COM9.log", true)]
    [InlineData("a.txt::$DATA", true)]
    [InlineData("report 10:30.txt", true)]
    [InlineData("x.txt.", true)]
    [InlineData("x.txt ", true)]
    [InlineData("CONSOLE", false)]
    [InlineData("COM10", false)]
    [InlineData("x.txt", false)]
    [InlineData(".hidden", false)]
    public void Windows_Rules_Refuse_Device_Names_Streams_And_Trailing_Dots(string segment, bool unsafeOnWindows) =>
        Assert.Equal(unsafeOnWindows, FileNames.IsUnsafeOnWindows(segment));

    private LocalPaths Resolver() => PathResolverTests.Create(_sandbox.RootPath);

    public void Dispose() => _sandbox.Dispose();
}
