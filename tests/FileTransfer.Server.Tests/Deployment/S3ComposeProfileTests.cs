using System.Reflection;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.S3;

namespace FileTransfer.Server.Tests.Deployment;

/// <summary>
/// docker-compose.yml's profile <c>s3</c>, read as text (no Docker here): every replica setting names
/// a real option, the replicas share what replicas must share, and every file it points at exists.
/// </summary>
public sealed partial class S3ComposeProfileTests
{
    private static readonly string Compose = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "docker-compose.yml"));

    [Fact]
    public void Every_Storage_S3_Setting_Of_The_Replicas_Is_An_Option_Of_The_Backend()
    {
        var options = typeof(S3StorageOptions).GetProperties(BindingFlags.Public | BindingFlags.Instance).Select(p => p.Name).ToHashSet(StringComparer.Ordinal);

        var named = S3Setting().Matches(Compose).Select(m => m.Groups["name"].Value).Distinct().ToList();

        Assert.Contains("ServiceUrl", named);
        Assert.Contains("SecretKey", named);
        Assert.All(named, name => Assert.Contains(name, options));
    }

    [Fact]
    public void Both_Replicas_Share_One_Definition_With_The_Backend_The_Signing_Key_And_Redirects()
    {
        Assert.Contains("filetransfer-a: &s3-replica", Compose, StringComparison.Ordinal);
        Assert.Matches(@"filetransfer-b:\s*\n\s*<<: \*s3-replica", Compose);
        Assert.Contains("Storage__Backend: S3", Compose, StringComparison.Ordinal);
        Assert.Contains("Auth__SigningKey: ${FILETRANSFER_SIGNING_KEY:?", Compose, StringComparison.Ordinal);
        Assert.Contains("Storage__S3__RedirectDownloads: \"true\"", Compose, StringComparison.Ordinal);

        // Secrets come from the environment of "docker compose", never from the file.
        Assert.Contains("Storage__S3__SecretKey: ${FILETRANSFER_S3_SECRET_KEY:?", Compose, StringComparison.Ordinal);
        Assert.Contains("CEPH_RGW_SECRET_KEY: ${FILETRANSFER_S3_SECRET_KEY:?", Compose, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("deploy/ceph-rgw/Dockerfile")]
    [InlineData("deploy/nginx/filetransfer.conf")]
    public void The_Files_The_Profile_Uses_Exist(string path)
    {
        Assert.Contains(path, Compose, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(RepositoryPaths.Root, path)), path);
    }

    [GeneratedRegex(@"Storage__S3__(?<name>\w+):")]
    private static partial Regex S3Setting();
}
