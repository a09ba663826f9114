using FileTransfer.Core;
using FileTransfer.Storage.Local;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Storage;

public sealed class PathResolverTests : IDisposable
{
    private readonly TempStorage _storage = new();
    private readonly LocalPaths _resolver;

    public PathResolverTests()
    {
        _resolver = Create(_storage.RootPath);
    }

    [Theory]
    [InlineData("a.txt")]
    [InlineData("sub/dir/a.txt")]
    [InlineData(".hidden")]
    [InlineData("a..b")]
    [InlineData("é/日本/😀.bin")]
    [InlineData("100%.txt")]
    [InlineData("report 10:30.txt")]
    public void Accepts_Names_Under_The_Root(string name)
    {
        Assert.True(_resolver.TryResolve(name, out var path, out _));
        Assert.Equal(Path.Join(_storage.RootPath, name), path);
    }

    [Theory]
    [InlineData("")]
    [InlineData("..")]
    [InlineData("../a")]
    [InlineData("a/../../b")]
    [InlineData("a/./b")]
    [InlineData("/etc/passwd")]
    [InlineData("a\\b")]
    [InlineData("C:/x")]
    [InlineData("a//b")]
    [InlineData("a/")]
    [InlineData("a\0b")]
    [InlineData("%2e%2e/x")]
    [InlineData(".ft-upload-1.tmp")]
    [InlineData("sub/.FT-x")]
    public void Refuses_Names_That_Break_A_Rule(string name)
    {
        Assert.False(_resolver.TryResolve(name, out _, out var rejection));
        Assert.DoesNotContain(_storage.RootPath, rejection.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("\uFF0E\uFF0E/secret.txt")] // fullwidth full stops: ".."
    [InlineData("\uFF0E")] // "."
    [InlineData("a/\uFF0E\uFF0E")]
    [InlineData("\u2024\u2024/secret.txt")] // one dot leaders: ".."
    [InlineData("\u2024")] // "."
    [InlineData("\u2025")] // two dot leader: ".."
    [InlineData("\uFE52\uFE52")] // small full stops: ".."
    [InlineData(".\uFF0E")] // mixed: ".."
    [InlineData("\uFF0E\uFF0E\uFF0Fsecret.txt")] // "../secret.txt" in one segment
    [InlineData("a\uFF0Fb")] // fullwidth solidus: "a/b"
    [InlineData("\uFF0F")] // "/"
    [InlineData("\uFF3C")] // fullwidth reverse solidus: "\\"
    [InlineData("a\uFE68b")] // small reverse solidus: "a\\b"
    [InlineData("sub/\uFF0E\uFF0E\uFF3C\uFF0E\uFF0E\uFF3Cx")]
    [InlineData("\uFE30")] // vertical two dot leader: ".."
    [InlineData("\u2105.txt")] // care of: "c/o.txt", a new separator
    public void Refuses_Names_That_Compatibility_Normalisation_Turns_Into_Traversal(string name)
    {
        Assert.False(_resolver.TryResolve(name, out _, out var rejection));
        Assert.Same(NameRejection.CompatibilityTraversal, rejection);
    }

    [Theory]
    [InlineData("\uFF21\uFF22\uFF23.txt")] // fullwidth letters
    [InlineData("\uFF11\uFF12\uFF13")] // fullwidth digits
    [InlineData("\u65E5\u672C\u8A9E/\u30D5\u30A1\u30A4\u30EB.txt")] // CJK and katakana
    [InlineData("\uFF76\uFF9E\uFF76\uFF9E.txt")] // halfwidth katakana
    [InlineData("\u2026")] // ellipsis: "..." is an ordinary name
    [InlineData("\uFF0E\uFF0E\uFF0E")] // "..."
    [InlineData("a\uFF0Eb")] // "a.b"
    [InlineData("\uFF0Ehidden")] // ".hidden"
    [InlineData("a\u2215b")] // division slash: no compatibility mapping
    [InlineData("a\u2044b")] // fraction slash: no compatibility mapping
    [InlineData("\u33A1.txt")] // square m squared: "m2"
    public void Accepts_Fullwidth_And_Cjk_Names_That_Stay_Harmless_When_Normalised(string name)
    {
        Assert.True(_resolver.TryResolve(name, out var path, out _));
        Assert.Equal(Path.Join(_storage.RootPath, name), path);
    }

    [Fact]
    public void Refuses_Segments_Over_255_Bytes_And_Names_Over_1024()
    {
        Assert.True(_resolver.TryResolve(new string('a', 255), out _, out _));
        Assert.False(_resolver.TryResolve(new string('a', 256), out _, out _));
        Assert.False(_resolver.TryResolve(new string('é', 128), out _, out _));
        Assert.False(_resolver.TryResolve(string.Join('/', Enumerable.Repeat(new string('a', 200), 6)), out _, out _));
    }

    [Fact]
    public void Refuses_Links_That_Leave_The_Root_And_Follows_Links_Inside()
    {
        var outside = Path.Combine(Path.GetTempPath(), $"outside-{Guid.NewGuid():N}");
        Directory.CreateDirectory(outside);
        File.WriteAllText(Path.Combine(outside, "secret.txt"), "secret");
        Directory.CreateDirectory(_storage.PathOf("inside"));
        Directory.CreateSymbolicLink(_storage.PathOf("escape"), outside);
        File.CreateSymbolicLink(_storage.PathOf("secret-link.txt"), Path.Combine(outside, "secret.txt"));
        Directory.CreateSymbolicLink(_storage.PathOf("alias"), _storage.PathOf("inside"));

        try
        {
            Assert.False(_resolver.TryResolve("escape/secret.txt", out _, out _));
            Assert.False(_resolver.TryResolve("escape/new-upload.bin", out _, out _));
            Assert.False(_resolver.TryResolve("secret-link.txt", out _, out _));
            Assert.True(_resolver.TryResolve("alias/file.txt", out _, out _));
        }
        finally
        {
            Directory.Delete(outside, recursive: true);
        }
    }

    [Fact]
    public void Hands_On_The_Files_Identity_Only_For_A_Regular_File_Reached_Without_A_Link()
    {
        _storage.Write("sub/file.txt", [1, 2, 3]);
        File.CreateSymbolicLink(_storage.PathOf("link.txt"), _storage.PathOf("sub/file.txt"));
        Directory.CreateSymbolicLink(_storage.PathOf("alias"), _storage.PathOf("sub"));

        // The identity is the file the name opens now, as the open-file cache would statx it.
        Assert.Equal(_storage.PathOf("sub/file.txt"), _resolver.Resolve("sub/file.txt", out var file));
        Assert.True(FileIdentity.TryOf(_storage.PathOf("sub/file.txt"), out var expected));
        Assert.Equal(expected, file);

        // A link at the end or on the way is resolved in full, and the cache asks the name itself.
        Assert.Equal(_storage.PathOf("link.txt"), _resolver.Resolve("link.txt", out file));
        Assert.Null(file);
        Assert.Equal(_storage.PathOf("alias/file.txt"), _resolver.Resolve("alias/file.txt", out file));
        Assert.Null(file);

        // A folder, a missing name, and a name below a file are no regular file.
        Assert.Equal(_storage.PathOf("sub"), _resolver.Resolve("sub", out file));
        Assert.Null(file);
        Assert.Equal(_storage.PathOf("sub/new/upload.bin"), _resolver.Resolve("sub/new/upload.bin", out file));
        Assert.Null(file);
        Assert.Equal(_storage.PathOf("sub/file.txt/x"), _resolver.Resolve("sub/file.txt/x", out file));
        Assert.Null(file);
    }

    [Fact]
    public void Refuses_A_Link_Out_Of_The_Root_Deeper_In_The_Name_Than_Its_First_Segment()
    {
        var outside = Path.Combine(Path.GetTempPath(), $"outside-{Guid.NewGuid():N}");
        Directory.CreateDirectory(Path.Combine(outside, "c"));
        File.WriteAllText(Path.Combine(outside, "c", "secret.txt"), "secret");
        Directory.CreateDirectory(_storage.PathOf("a/b"));
        Directory.CreateSymbolicLink(_storage.PathOf("a/b/out"), outside);
        File.CreateSymbolicLink(_storage.PathOf("a/b/secret-link.txt"), Path.Combine(outside, "c", "secret.txt"));

        try
        {
            // Real folders first: the link is found however deep it is, in the middle or at the end.
            Assert.False(_resolver.TryResolve("a/b/out/c/secret.txt", out _, out var rejection));
            Assert.Equal(NameRejection.OutsideRoot, rejection);
            Assert.False(_resolver.TryResolve("a/b/out/new-upload.bin", out _, out rejection));
            Assert.Equal(NameRejection.OutsideRoot, rejection);
            Assert.False(_resolver.TryResolve("a/b/secret-link.txt", out _, out rejection));
            Assert.Equal(NameRejection.OutsideRoot, rejection);
        }
        finally
        {
            Directory.Delete(outside, recursive: true);
        }
    }

    internal static LocalPaths Create(string rootPath)
    {
        var options = Options.Create(new LocalStorageOptions { RootPath = rootPath });
        return new LocalPaths(new LocalRoot(options, new Environment()));
    }

    public void Dispose()
    {
        _resolver.Dispose();
        _storage.Dispose();
    }

    private sealed class Environment : IHostEnvironment
    {
        public string EnvironmentName { get; set; } = "Testing";
        public string ApplicationName { get; set; } = "Tests";
        public string ContentRootPath { get; set; } = Path.GetTempPath();
        public IFileProvider ContentRootFileProvider { get; set; } = new NullFileProvider();
    }
}
