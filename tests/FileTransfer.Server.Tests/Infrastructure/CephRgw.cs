using System.Diagnostics;
using Amazon.Runtime;
using Amazon.S3;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The Ceph RADOS Gateway (S3) the tests run against: the one <c>scripts/test.sh</c> started, named by
/// <c>FT_S3_SERVICE_URL</c>, <c>FT_S3_ACCESS_KEY</c> and <c>FT_S3_SECRET_KEY</c>; without them, one
/// that this test process starts on first use through <c>scripts/ceph-rgw.sh start</c> (a few seconds)
/// and that stops when the process exits, so that <c>dotnet test</c> alone works wherever the Ceph packages are
/// installed. The engine is real and shared: a test class works in its own bucket (<c>CephRgwBucket</c>).
/// </summary>
public sealed class CephRgw
{
    public const string ServiceUrlVariable = "FT_S3_SERVICE_URL";
    public const string AccessKeyVariable = "FT_S3_ACCESS_KEY";
    public const string SecretKeyVariable = "FT_S3_SECRET_KEY";

    /// <summary>The region the backend signs for; RGW accepts any, the SDK needs one.</summary>
    public const string Region = "us-east-1";

    private static readonly Lazy<Task<CephRgw>> Shared = new(StartAsync);

    private static readonly string Script = Path.Combine(RepositoryPaths.Root, "scripts", "ceph-rgw.sh");

    private CephRgw(Uri serviceUrl, string accessKey, string secretKey)
    {
        ServiceUrl = serviceUrl;
        AccessKey = accessKey;
        SecretKey = secretKey;
    }

    public Uri ServiceUrl { get; }

    public string AccessKey { get; }

    public string SecretKey { get; }

    /// <summary>The shared instance, started on the first call; a failed start fails every caller with the script's output.</summary>
    public static Task<CephRgw> GetAsync() => Shared.Value;

    /// <summary>A bucket name no other test class uses (S3 rules: 3-63 lower-case letters, digits and hyphens).</summary>
    public static string NewBucketName() => $"ft-test-{Guid.NewGuid():N}";

    /// <summary>
    /// A client configured the way the S3 backend configures its own: path-style addressing over plain
    /// HTTP, and checksums only where an operation requires them (RGW 16 refuses the SDK's default
    /// trailing checksums with 400 XAmzContentSHA256Mismatch).
    /// </summary>
    public AmazonS3Client CreateClient() => new(
        new BasicAWSCredentials(AccessKey, SecretKey),
        new AmazonS3Config
        {
            ServiceURL = ServiceUrl.ToString(),
            AuthenticationRegion = Region,
            ForcePathStyle = true,
            RequestChecksumCalculation = RequestChecksumCalculation.WHEN_REQUIRED,
            ResponseChecksumValidation = ResponseChecksumValidation.WHEN_REQUIRED,
        });

    private static async Task<CephRgw> StartAsync()
    {
        var url = Environment.GetEnvironmentVariable(ServiceUrlVariable);
        if (!string.IsNullOrEmpty(url))
        {
            return new CephRgw(new Uri(url), Required(AccessKeyVariable), Required(SecretKeyVariable));
        }

        // Short: the admin sockets inside must fit a Unix socket path.
        var folder = Path.Combine(Path.GetTempPath(), "ft-ceph-" + Guid.NewGuid().ToString("N")[..12]);
        // The cluster outlives the script: its --owner watcher stops it within a second of this process
        // ending. xunit 2 has no assembly-wide teardown, and a ProcessExit handler is cut short: vstest
        // ends the test host right after the run (measured: the handler started, its stop never finished).
        var (exitCode, output) = await RunScriptAsync(TimeSpan.FromMinutes(4), "start", folder, "--owner", Environment.ProcessId.ToString());
        if (exitCode != 0)
        {
            await RunScriptAsync(TimeSpan.FromSeconds(30), "stop", folder);
            throw new InvalidOperationException($"scripts/ceph-rgw.sh start exited {exitCode} (run 'scripts/ceph-rgw.sh install' if Ceph is missing):\n{output}");
        }

        // DIR/env: the three FT_S3_* lines, as test.sh reads them.
        var values = (await File.ReadAllLinesAsync(Path.Combine(folder, "env")))
            .Select(line => line.Split('=', 2))
            .ToDictionary(pair => pair[0], pair => pair[1]);
        return new CephRgw(new Uri(values[ServiceUrlVariable]), values[AccessKeyVariable], values[SecretKeyVariable]);
    }

    private static string Required(string variable) =>
        Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value
            ? value
            : throw new InvalidOperationException($"{ServiceUrlVariable} is set but {variable} is not.");

    /// <summary>Runs the script; standard output and error together (the error side carries a failing daemon's log).</summary>
    private static async Task<(int ExitCode, string Output)> RunScriptAsync(TimeSpan timeout, params string[] arguments)
    {
        var run = await ChildProcess.RunAsync(new ProcessStartInfo("bash", [Script, .. arguments]), timeout);
        return run.TimedOut
            ? (-1, $"timed out after {timeout}:\n{run.Output}{run.Error}")
            : (run.ExitCode, run.Output + run.Error);
    }
}
