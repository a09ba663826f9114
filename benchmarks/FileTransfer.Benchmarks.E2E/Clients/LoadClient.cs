using System.Globalization;
using System.Text.RegularExpressions;
using FileTransfer.Benchmarks.E2E.Infrastructure;

namespace FileTransfer.Benchmarks.E2E.Clients;

/// <summary>What a load tool reported: completed requests, body bytes and the time they took.</summary>
internal sealed record LoadOutcome(long Requests, long Failed, long Bytes, TimeSpan Duration);

/// <summary>A fixed-rate run: the load outcome and the latency percentiles of its successful requests.</summary>
internal sealed record FixedRateOutcome(LoadOutcome Load, Reporting.Latency Latency);

/// <summary>h2load (HTTP/2, nghttp2) and wrk (HTTP/1.1): the same flags against both servers.</summary>
internal static partial class LoadClient
{
    /// <summary>
    /// Stream and connection windows of 2^24 (16 MiB) for both servers: with h2load's default 2^30,
    /// nginx 1.22 closed about one large download in three as an "http2 flood"; with 2^24 none in 8.
    /// </summary>
    private static readonly string[] Windows = ["-w", "24", "-W", "24"];

    /// <summary>The API key on every request, as every client of ours sends it (nginx ignores it).</summary>
    private static readonly string[] Key = ["-H", "Authorization: Bearer " + Infrastructure.OurServer.ApiKey];

    /// <summary>One h2load GET of a large file over h2c.</summary>
    public static Task<LoadOutcome> H2loadOnceAsync(Uri url) => H2loadAsync([.. Windows, "-n", "1", "-c", "1", "-m", "1", url.ToString()]);

    /// <summary>h2load for <paramref name="seconds"/> with <paramref name="connections"/> connections of <paramref name="streams"/> streams each.</summary>
    public static Task<LoadOutcome> H2loadForAsync(Uri url, int seconds, int connections, int streams) =>
        H2loadAsync([.. Windows, "-D", seconds.ToString(CultureInfo.InvariantCulture), "-c", connections.ToString(CultureInfo.InvariantCulture),
            "-m", streams.ToString(CultureInfo.InvariantCulture), "-t", "1", url.ToString()]);

    /// <summary>
    /// A fixed request rate, wrk2-style (wrk2 is not packaged by Debian): h2load <c>--rps</c> over
    /// <paramref name="connections"/> connections (one request in flight on each; <c>--h1</c> for
    /// HTTP/1.1), <paramref name="rate"/> requests per second in all, for <paramref name="seconds"/>.
    /// Latency is each request's time from when h2load sent it to the end of its response, from
    /// h2load's per-request <c>--log-file</c>; unlike wrk2, a request h2load could not send on time
    /// (its connection still busy) is not charged the wait, so the achieved rate is reported beside
    /// the asked one and a server that falls behind shows as a shortfall there.
    /// </summary>
    public static async Task<FixedRateOutcome> H2loadFixedRateAsync(Uri url, bool http2, int seconds, int connections, double rate, string logFile)
    {
        var perConnection = Math.Max(1, rate / connections);
        string[] protocol = http2 ? [.. Windows] : ["--h1"];
        var load = await H2loadAsync([.. protocol, "-D", seconds.ToString(CultureInfo.InvariantCulture), "-c", connections.ToString(CultureInfo.InvariantCulture),
            "-m", "1", "-t", "1", "--rps", perConnection.ToString("0.###", CultureInfo.InvariantCulture), "--log-file", logFile, url.ToString()]);
        var durations = new List<double>();
        foreach (var line in await File.ReadAllLinesAsync(logFile))
        {
            var fields = line.Split('\t');
            if (fields.Length >= 3 && fields[1] == "200")
            {
                durations.Add(double.Parse(fields[2], CultureInfo.InvariantCulture) / 1000);
            }
        }

        File.Delete(logFile);
        var sorted = durations.Order().ToArray();
        double Percentile(double p) => sorted.Length == 0 ? double.NaN : sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(p * sorted.Length) - 1)];
        return new FixedRateOutcome(load, new Reporting.Latency(perConnection * connections, Percentile(0.50), Percentile(0.99), sorted.Length == 0 ? double.NaN : sorted[^1]));
    }

    /// <summary>wrk for <paramref name="seconds"/> with one thread and <paramref name="connections"/> keep-alive connections.</summary>
    public static async Task<LoadOutcome> WrkForAsync(Uri url, int seconds, int connections)
    {
        var result = (await ExternalTool.RunAsync("wrk",
            ["-t1", $"-c{connections}", $"-d{seconds}s", .. Key, url.ToString()], TimeSpan.FromSeconds(seconds + 60))).EnsureSuccess("wrk");
        var text = result.StandardOutput;
        var summary = WrkSummary().Match(text);
        if (!summary.Success)
        {
            throw new InvalidOperationException("Unexpected wrk output: " + text);
        }

        var non2xx = WrkNon2xx().Match(text);
        var errors = WrkErrors().Match(text);
        var failed = (non2xx.Success ? long.Parse(non2xx.Groups[1].Value, CultureInfo.InvariantCulture) : 0)
            + (errors.Success ? errors.Groups.Values.Skip(1).Sum(g => long.Parse(g.Value, CultureInfo.InvariantCulture)) : 0);
        return new LoadOutcome(
            long.Parse(summary.Groups["requests"].Value, CultureInfo.InvariantCulture),
            failed,
            Bytes: 0,
            TimeSpan.FromSeconds(double.Parse(summary.Groups["seconds"].Value, CultureInfo.InvariantCulture)));
    }

    private static async Task<LoadOutcome> H2loadAsync(string[] arguments)
    {
        var result = (await ExternalTool.RunAsync("h2load", [.. Key, .. arguments], TimeSpan.FromMinutes(10))).EnsureSuccess("h2load");
        var text = result.StandardOutput;
        var finished = H2loadFinished().Match(text);
        var requests = H2loadRequests().Match(text);
        var data = H2loadData().Match(text);
        if (!finished.Success || !requests.Success || !data.Success)
        {
            throw new InvalidOperationException("Unexpected h2load output: " + text);
        }

        var unit = finished.Groups["unit"].Value;
        var value = double.Parse(finished.Groups["time"].Value, CultureInfo.InvariantCulture);
        var duration = unit switch { "ms" => TimeSpan.FromMilliseconds(value), "us" => TimeSpan.FromMicroseconds(value), _ => TimeSpan.FromSeconds(value) };
        var succeeded = long.Parse(requests.Groups["succeeded"].Value, CultureInfo.InvariantCulture);
        var done = long.Parse(requests.Groups["done"].Value, CultureInfo.InvariantCulture);
        var non2xx = H2loadStatus().Match(text) is { Success: true } s
            ? long.Parse(s.Groups["c4"].Value, CultureInfo.InvariantCulture) + long.Parse(s.Groups["c5"].Value, CultureInfo.InvariantCulture) : 0;
        if (succeeded != done || succeeded == 0)
        {
            Console.Error.WriteLine("h2load said:\n" + text + result.StandardError);
        }

        return new LoadOutcome(succeeded, done - succeeded + long.Parse(requests.Groups["failed"].Value, CultureInfo.InvariantCulture) + non2xx,
            long.Parse(data.Groups["data"].Value, CultureInfo.InvariantCulture), duration);
    }

    [GeneratedRegex(@"(?<requests>\d+) requests in (?<seconds>[\d.]+)s")]
    private static partial Regex WrkSummary();

    [GeneratedRegex(@"Non-2xx or 3xx responses: (\d+)")]
    private static partial Regex WrkNon2xx();

    [GeneratedRegex(@"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")]
    private static partial Regex WrkErrors();

    [GeneratedRegex(@"finished in (?<time>[\d.]+)(?<unit>s|ms|us),")]
    private static partial Regex H2loadFinished();

    [GeneratedRegex(@"requests: \d+ total, \d+ started, (?<done>\d+) done, (?<succeeded>\d+) succeeded, (?<failed>\d+) failed")]
    private static partial Regex H2loadRequests();

    [GeneratedRegex(@"\((?<data>\d+)\) data")]
    private static partial Regex H2loadData();

    [GeneratedRegex(@"status codes: \d+ 2xx, \d+ 3xx, (?<c4>\d+) 4xx, (?<c5>\d+) 5xx")]
    private static partial Regex H2loadStatus();
}
