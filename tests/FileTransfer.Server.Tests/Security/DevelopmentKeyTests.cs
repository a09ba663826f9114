using System.Runtime.Versioning;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// The development key survives restarts for the same storage root, in an owner-only file outside
/// the root, and exists only in Development. Each <see cref="ApiKeyStore"/> built here is what one
/// server start builds. Unix file modes: the project's servers and CI run on Linux.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class DevelopmentKeyTests : IDisposable
{
    private const UnixFileMode OwnerReadWrite = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    private const UnixFileMode OwnerAll = OwnerReadWrite | UnixFileMode.UserExecute;

    private readonly TempStorage _home = new();
    private readonly TempStorage _root = new();
    private readonly TempStorage _otherRoot = new();

    private string Folder => Path.Combine(_home.RootPath, "state", "development-keys");

    [Fact]
    public void Two_Starts_On_The_Same_Root_Get_The_Same_Key_And_Another_Root_Gets_Another()
    {
        var first = Start(_root.RootPath);
        var second = Start(_root.RootPath);
        var other = Start(_otherRoot.RootPath);

        Assert.Equal(first.Key, second.Key);
        Assert.Equal("created now", first.Origin);
        Assert.Equal("read from an earlier run", second.Origin);
        Assert.NotEqual(first.Key, other.Key);
        Assert.NotEqual(first.FilePath, other.FilePath);
        Assert.Equal(2, Directory.GetFiles(Folder).Length);
        Assert.Equal(first.Key + "\n", File.ReadAllText(first.FilePath!));
        Assert.Matches("^[A-Za-z0-9_-]{43}$", first.Key);
    }

    [Fact]
    public void The_Key_Is_Kept_Outside_The_Root_In_A_0600_File_In_A_0700_Folder()
    {
        var key = Start(_root.RootPath);

        Assert.Equal(OwnerReadWrite, File.GetUnixFileMode(key.FilePath!));
        Assert.Equal(OwnerAll, File.GetUnixFileMode(Folder));
        Assert.Equal(Folder, Path.GetDirectoryName(key.FilePath));
        Assert.Empty(_root.Files());
        Assert.Empty(Directory.GetFiles(Folder, "*.tmp"));
    }

    [Fact]
    public void A_Root_Reached_Through_A_Link_Shares_The_Key_Of_Its_Target()
    {
        var link = Path.Combine(_home.RootPath, "root-link");
        Directory.CreateSymbolicLink(link, _root.RootPath);

        Assert.Equal(Start(_root.RootPath).Key, Start(link + "/./").Key);
    }

    [Fact]
    public void A_Key_File_Other_Users_Could_Read_Is_Replaced_By_A_New_Owner_Only_One()
    {
        var leaked = Start(_root.RootPath);
        File.SetUnixFileMode(leaked.FilePath!, OwnerReadWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead);

        var replaced = Start(_root.RootPath);

        Assert.NotEqual(leaked.Key, replaced.Key);
        Assert.StartsWith("created now, replacing a file that other users could read", replaced.Origin, StringComparison.Ordinal);
        Assert.Equal(OwnerReadWrite, File.GetUnixFileMode(replaced.FilePath!));
        Assert.Equal(replaced.Key, Start(_root.RootPath).Key);
    }

    [Theory]
    [InlineData("not a key")]
    [InlineData("")]
    public void A_Key_File_Without_A_Key_Is_Replaced(string content)
    {
        var path = DevelopmentKeyFile.PathFor(Folder, Root(_root.RootPath).Location);
        Start(_root.RootPath);
        File.WriteAllText(path, content);

        var key = Start(_root.RootPath);

        Assert.Equal(key.Key + "\n", File.ReadAllText(path));
        Assert.Contains("did not hold a key", key.Origin, StringComparison.Ordinal);
    }

    [Fact]
    public void An_Existing_Folder_Other_Users_Can_Open_Is_Not_Used()
    {
        Directory.CreateDirectory(Folder);
        File.SetUnixFileMode(Folder, OwnerAll | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);

        var first = Start(_root.RootPath);

        Assert.Null(first.FilePath);
        Assert.Contains("open to other users (mode 755", first.Origin, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(Folder));
        Assert.NotEqual(first.Key, Start(_root.RootPath).Key);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_Folder_Inside_The_Storage_Root_Is_Never_Used(bool throughALink)
    {
        var folder = Path.Combine(_root.RootPath, ".local", "keys");
        if (throughALink)
        {
            Directory.CreateSymbolicLink(Path.Combine(_home.RootPath, "into-root"), _root.RootPath);
            folder = Path.Combine(_home.RootPath, "into-root", "keys");
        }

        var key = Start(_root.RootPath, folder);

        Assert.Null(key.FilePath);
        Assert.Contains("is inside the storage root", key.Origin, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(_root.RootPath));
    }

    [Theory]
    [InlineData("Production")]
    [InlineData("Staging")]
    [InlineData("Testing")]
    public void Outside_Development_The_Key_File_Is_Never_Written_Nor_Read(string environment)
    {
        var planted = Start(_root.RootPath);
        var before = File.ReadAllBytes(planted.FilePath!);
        var otherFile = DevelopmentKeyFile.PathFor(Folder, Root(_otherRoot.RootPath).Location);

        var store = Store(_root.RootPath, Folder, environment);
        var other = Store(_otherRoot.RootPath, Folder, environment);

        Assert.Null(store.DevelopmentKey);
        Assert.Null(other.DevelopmentKey);
        Assert.Equal(0, store.Count);
        Assert.Null(store.Find(planted.Key));
        Assert.Equal(before, File.ReadAllBytes(planted.FilePath!));
        Assert.False(File.Exists(otherFile));
        Assert.Single(Directory.GetFileSystemEntries(Folder));
    }

    [Fact]
    public void An_Object_Store_Location_Names_Its_Key_File_By_The_Url_Itself()
    {
        const string Store = "s3://127.0.0.1:7480/files/team/";

        var first = StartAt(Store);
        var second = StartAt(Store);
        var otherPrefix = StartAt("s3://127.0.0.1:7480/files/other/");

        // The URL as it is, not a path made of it relative to the working folder: the same store
        // gets the same key from wherever the server starts.
        var expected = System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(Store));
        Assert.Equal(Path.Combine(Folder, Convert.ToHexStringLower(expected)[..32] + ".key"), first.FilePath);
        Assert.Equal("created now", first.Origin);
        Assert.Equal(first.Key, second.Key);
        Assert.NotEqual(first.Key, otherPrefix.Key);

        DevelopmentKey StartAt(string location)
        {
            var store = new ApiKeyStore(Options.Create(new AuthOptions { DevelopmentKeyFolder = Folder }), Environment(Environments.Development), new FixedLocation(location));
            return store.DevelopmentKey!;
        }
    }

    [Fact]
    public void Configured_Keys_Mean_No_Development_Key_Even_In_Development()
    {
        var options = new AuthOptions { DevelopmentKeyFolder = Folder, ApiKeys = [new ApiKeyOptions { Key = FileTransferFactory.TestKey, Scopes = ["read"] }] };

        var store = new ApiKeyStore(Options.Create(options), Environment(Environments.Development), Root(_root.RootPath));

        Assert.Null(store.DevelopmentKey);
        Assert.False(Directory.Exists(Folder));
    }

    private DevelopmentKey Start(string root, string? folder = null)
    {
        var store = Store(root, folder ?? Folder, Environments.Development);
        Assert.NotNull(store.Find(store.DevelopmentKey!.Key));
        return store.DevelopmentKey;
    }

    private static ApiKeyStore Store(string root, string folder, string environment) =>
        new(Options.Create(new AuthOptions { DevelopmentKeyFolder = folder }), Environment(environment), Root(root));

    private static HostingEnvironment Environment(string name) => new() { EnvironmentName = name, ContentRootPath = AppContext.BaseDirectory };

    // The local backend itself, as the server registers it: its location and what it serves come from it.
    private static IStorageBackend Root(string path)
    {
        var services = new ServiceCollection()
            .AddLogging()
            .AddSingleton<IHostEnvironment>(Environment(Environments.Development))
            .AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["Storage:RootPath"] = path }).Build());
        LocalStorageRegistration.Backend.AddTo(services);
        return services.BuildServiceProvider().GetRequiredService<IStorageBackend>();
    }

    private sealed class FixedLocation(string location) : IStorageBackend
    {
        public string Location => location;

        public ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken) => throw new NotSupportedException();

        public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) => ValueTask.FromResult(true);
    }

    public void Dispose()
    {
        _home.Dispose();
        _root.Dispose();
        _otherRoot.Dispose();
    }
}
