using System.Globalization;
using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>What curl reported about one transfer (its own <c>-w</c> timing excludes process start).</summary>
internal sealed record CurlOutcome(int Status, long Bytes, TimeSpan Duration, string Body);

/// <summary>curl as the neutral client for both servers: same binary, same flags, only the URL differs.</summary>
internal static class CurlClient
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    /// <summary>GET into <paramref name="output"/> (<c>/dev/null</c> to discard).</summary>
    public static Task<CurlOutcome> DownloadAsync(Uri url, bool http2, string output) =>
        RunAsync(http2, ["-o", output, url.ToString()], "%{size_download}");

    /// <summary><c>curl -T</c>: a raw PUT of the file.</summary>
    public static Task<CurlOutcome> UploadAsync(Uri url, bool http2, string file) =>
        RunAsync(http2, ["-T", file, "-H", "Content-Type: application/octet-stream", url.ToString()], "%{size_upload}");

    /// <summary><c>curl -F</c>: a multipart/form-data POST of the file, stored as <paramref name="fileName"/>.</summary>
    public static Task<CurlOutcome> UploadMultipartAsync(Uri url, bool http2, string file, string fileName) =>
        RunAsync(http2, ["-F", $"file=@{file};filename={fileName};type=application/octet-stream", url.ToString()], "%{size_upload}");

    private static async Task<CurlOutcome> RunAsync(bool http2, string[] arguments, string sizeVariable)
    {
        // The body (uploads answer JSON) goes to stdout ahead of the -w line, which is last.
        string[] common = ["-sS", "--noproxy", "*", http2 ? "--http2-prior-knowledge" : "--http1.1", "-H", $"Authorization: Bearer {OurServer.ApiKey}", "-w", $"\n%{{http_code}} {sizeVariable} %{{time_total}}"];
        var result = (await ExternalTool.RunAsync("curl", [.. common, .. arguments], Timeout)).EnsureSuccess("curl");
        var output = result.StandardOutput;
        var split = output.LastIndexOf('\n');
        var fields = output[(split + 1)..].Split(' ');
        return new CurlOutcome(
            int.Parse(fields[0], CultureInfo.InvariantCulture),
            (long)double.Parse(fields[1], CultureInfo.InvariantCulture),
            TimeSpan.FromSeconds(double.Parse(fields[2], CultureInfo.InvariantCulture)),
            output[..Math.Max(0, split)]);
    }
}
