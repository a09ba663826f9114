using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Security;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.HttpLogging;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// <c>Storage:Backend=S3</c> settings: a wrong one stops the server at start with a message that
/// names the key (and never its value), the bucket is created when missing, and the secret key never
/// reaches a log line, nor does a presigned URL's signature.
/// </summary>
public sealed class S3ConfigurationTests : IAsyncLifetime
{
    private readonly string _bucket = CephRgw.NewBucketName();
    private CephRgw _rgw = null!;

    public async Task InitializeAsync() => _rgw = await CephRgw.GetAsync();

    [Theory]
    [InlineData("Storage:S3:ServiceUrl", null, "Storage:S3:ServiceUrl is required")]
    [InlineData("Storage:S3:Bucket", null, "Storage:S3:Bucket is required")]
    [InlineData("Storage:S3:AccessKey", null, "Storage:S3:AccessKey is required")]
    [InlineData("Storage:S3:SecretKey", null, "Storage:S3:SecretKey is required")]
    [InlineData("Storage:S3:ServiceUrl", "ftp://127.0.0.1:1/", "Storage:S3:ServiceUrl must be an absolute http:// or https:// URL")]
    [InlineData("Storage:S3:ServiceUrl", "http://user:secret-in-url@127.0.0.1:1/", "Storage:S3:ServiceUrl must be an absolute http:// or https:// URL")]
    [InlineData("Storage:S3:PublicServiceUrl", "not a url", "Storage:S3:PublicServiceUrl must be an absolute")]
    [InlineData("Storage:S3:Bucket", "Not_A_Bucket", "Storage:S3:Bucket must be a DNS-compatible bucket name")]
    [InlineData("Storage:S3:Prefix", "a/../b", "Storage:S3:Prefix must be empty or a folder name")]
    [InlineData("Storage:S3:RedirectSeconds", "604801", "Storage:S3:RedirectSeconds must be between 1 and 604800")]
    [InlineData("Storage:MaxFileSizeBytes", "6000000000000", "Storage:MaxFileSizeBytes must be at most 5497558138880")]
    [InlineData("Auth:SigningKey", null, "Auth:SigningKey must be set (32+ characters) when Storage:Backend is S3")]
    [InlineData("Storage:Backend", "Disk", "Storage:Backend must be Local (the default) or S3, not 'Disk'")]
    public void A_Wrong_Setting_Stops_The_Server_At_Start_Naming_The_Key(string key, string? value, string message)
    {
        using var server = new FileTransferFactory().OnS3(_rgw, _bucket).With(key, value);
        if (value is null)
        {
            server.Without(key);
        }

        var refused = Assert.ThrowsAny<Exception>(() => server.CreateClient());

        Assert.Contains(message, Describe(refused), StringComparison.Ordinal);
        Assert.DoesNotContain("secret-in-url", Describe(refused), StringComparison.Ordinal);
        Assert.DoesNotContain(_rgw.SecretKey, Describe(refused), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_Bucket_Is_Created_At_Start_And_Health_Reports_The_Store()
    {
        using var server = new FileTransferFactory().OnS3(_rgw, _bucket);
        using var client = server.CreateClient();

        using var health = await client.GetAsync("/healthz", TestTimeout.Token);
        using var put = await client.PutAsync("/api/files/first.txt", new ByteArrayContent([1]), TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, health.StatusCode);
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        using var s3 = _rgw.CreateClient();
        Assert.Contains("first.txt", await S3Buckets.KeysAsync(s3, _bucket, ""));
    }

    [Fact]
    public void A_Secret_The_Store_Refuses_Stops_The_Server_Without_Showing_It()
    {
        const string WrongSecret = "0123456789abcdef0123456789abcdef01234567";
        var sink = new LogSink();
        using var server = TraceLogging(new FileTransferFactory().OnS3(_rgw, _bucket).With("Storage:S3:SecretKey", WrongSecret), sink);

        var refused = Assert.ThrowsAny<Exception>(() => server.CreateClient());

        Assert.Contains("Forbidden", Describe(refused), StringComparison.Ordinal);
        Assert.DoesNotContain(WrongSecret, Describe(refused), StringComparison.Ordinal);
        Assert.DoesNotContain(sink.Entries, e => e.Text.Contains(WrongSecret, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Neither_The_Secret_Key_Nor_A_Presigned_Urls_Signature_Reaches_A_Log_Line()
    {
        var sink = new LogSink();
        using var server = TraceLogging(new FileTransferFactory().OnS3(_rgw, _bucket, redirect: true), sink, httpLogging: true);
        using var client = server.CreateClient(new Microsoft.AspNetCore.Mvc.Testing.WebApplicationFactoryClientOptions { AllowAutoRedirect = false });

        using var put = await client.PutAsync("/api/files/logged.bin", new ByteArrayContent(TestData.RandomBytes(100)), TestTimeout.Token);
        Assert.True(put.StatusCode == HttpStatusCode.Created, await put.Content.ReadAsStringAsync(TestTimeout.Token));
        using var redirect = await client.GetAsync("/api/files/logged.bin", TestTimeout.Token);
        await client.GetAsync("/api/files?prefix=logged", TestTimeout.Token);
        await client.DeleteAsync("/api/files/logged.bin", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.TemporaryRedirect, redirect.StatusCode);
        var signature = System.Web.HttpUtility.ParseQueryString(redirect.Headers.Location!.Query)["X-Amz-Signature"]!;
        var entries = sink.Entries.ToList();
        Assert.True(entries.Count > 20, $"only {entries.Count} log entries");
        Assert.DoesNotContain(entries, e => e.Text.Contains(_rgw.SecretKey, StringComparison.Ordinal));
        Assert.DoesNotContain(entries, e => e.Text.Contains(signature, StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Text.Contains("X-Amz-Signature=[redacted]", StringComparison.Ordinal));
        Assert.Contains(entries, e => e.Message.Contains($"Files are stored in s3://{_rgw.ServiceUrl.Authority}/{_bucket}/", StringComparison.Ordinal));
    }

    private static string Describe(Exception exception) => exception.ToString();

    private static FileTransferFactory TraceLogging(FileTransferFactory server, LogSink sink, bool httpLogging = false)
    {
        foreach (var category in new[] { "Default", "Microsoft", "Microsoft.AspNetCore", "Microsoft.Hosting.Lifetime" })
        {
            server.With($"Logging:LogLevel:{category}", "Trace");
        }

        server.WithLogs(sink);
        if (httpLogging)
        {
            server.WithServices(services =>
            {
                services.AddHttpLogging(options =>
                {
                    options.LoggingFields = HttpLoggingFields.All;
                    options.ResponseHeaders.Add("Location");
                });
                services.AddSingleton<IStartupFilter, HttpLoggingFirst>();
            });
        }

        return server;
    }

    public async Task DisposeAsync()
    {
        using var client = _rgw.CreateClient();
        await S3Buckets.DeleteAsync(client, _bucket);
    }

    private sealed class HttpLoggingFirst : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.UseHttpLogging();
            next(app);
        };
    }
}
