using FileTransfer.Server.Storage;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Storage;

public sealed class PathResolverTests : IDisposable
{
    private readonly TempStorage _storage = new();
    private readonly StoragePathResolver _resolver;

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
        Assert.Equal(name, path.Name);
        Assert.StartsWith(_storage.RootPath + Path.DirectorySeparatorChar, path.FullPath, StringComparison.Ordinal);
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

    internal static StoragePathResolver Create(string rootPath)
    {
        var options = Options.Create(new StorageOptions { RootPath = rootPath });
        return new StoragePathResolver(new StorageRoot(options, new Environment()));
    }

    public void Dispose() => _storage.Dispose();

    private sealed class Environment : IHostEnvironment
    {
        public string EnvironmentName { get; set; } = "Testing";
        public string ApplicationName { get; set; } = "Tests";
        public string ContentRootPath { get; set; } = Path.GetTempPath();
        public IFileProvider ContentRootFileProvider { get; set; } = new NullFileProvider();
    }
}
