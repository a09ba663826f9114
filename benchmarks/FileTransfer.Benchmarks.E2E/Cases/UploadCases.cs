using System.Text.Json;
using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 2 (uploads) and the end-to-end half of case 4: the large file PUT with <c>curl -T</c> to
/// ours and to nginx's WebDAV (temp file + rename), to ours also with HttpClient and as multipart.
/// Every warm-up checks the stored file on disk by SHA-256 (and ours's reported sha256).
/// </summary>
internal static class UploadCases
{
    public const string Group = "3. Large upload (ours vs nginx WebDAV PUT)";
    private const string Target = "uploaded.bin";

    /// <summary>Asks our server once whether this build accepts uploads (the upload API lands separately).</summary>
    public static async Task ProbeAsync(BenchContext context)
    {
        var probe = Path.Combine(context.WorkDirectory, "probe.bin");
        await File.WriteAllTextAsync(probe, "probe");
        var outcome = await CurlClient.UploadAsync(context.Ours.FileUrl(false, $"{BenchContext.Folder}/probe.bin"), false, probe);
        context.UploadsMissing = outcome.Status is 200 or 201
            ? null
            : $"this build of the server has no upload API yet (PUT answered {outcome.Status})";
        File.Delete(context.Ours.PathOf($"{BenchContext.Folder}/probe.bin"));
    }

    public static async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"upload {BenchContext.Size(file.Size)}";
        // The baseline copy of our server (--baseline-env, --baseline-server) too, for before/after rows.
        foreach (var (name, server) in context.DownloadServers)
        {
            foreach (var http2 in new[] { false, true })
            {
                var result = new CaseResult(Group, label, name, http2 ? "HTTP/2" : "HTTP/1.1", "curl -T");
                Plan(context, result, server, s => async verify =>
                {
                    var outcome = await CurlClient.UploadAsync(context.Url(s, http2, Uploaded(file)), http2, file.Path);
                    Measurer.Expect(outcome.Status is 200 or 201 or 204, $"PUT answered {outcome.Status}: {outcome.Body}");
                    await VerifyAsync(context, s, verify, s is OurServer ? ShaOf(outcome.Body) : null);
                    return new Transfer(file.Size, outcome.Duration);
                });
            }
        }

        using var http1Client = new DotnetClient(http2: false);
        using var http2Client = new DotnetClient(http2: true);
        foreach (var http2 in new[] { false, true })
        {
            var client = http2 ? http2Client : http1Client;
            var result = new CaseResult(Group, label, "ours", client.Protocol, ".NET HttpClient PUT");
            Plan(context, result, context.Ours, s => async verify =>
            {
                var (status, sha) = await client.UploadAsync(context.Url(s, http2, Uploaded(file)), file.Path);
                Measurer.Expect((int)status is 200 or 201, $"PUT answered {(int)status}");
                await VerifyAsync(context, s, verify, sha);
                return new Transfer(file.Size);
            });
        }

        var multipart = new CaseResult(Group, label, "ours", "HTTP/1.1", "curl -F (multipart)");
        Plan(context, multipart, context.Ours, s => async verify =>
        {
            var outcome = await CurlClient.UploadMultipartAsync(new Uri(s.Http1, $"api/files?folder={BenchContext.Folder}"), false, file.Path, Target);
            Measurer.Expect(outcome.Status == 201, $"POST answered {outcome.Status}: {outcome.Body}");
            Measurer.Expect(!verify || outcome.Body.Contains(file.Sha256, StringComparison.Ordinal), "multipart: reported sha256 differs");
            return new Transfer(file.Size, outcome.Duration);
        });

        await context.Measurer.RunPlannedAsync();
        foreach (var server in new ServerUnderTest?[] { context.Ours, context.Nginx }.OfType<ServerUnderTest>())
        {
            // The baseline shares ours's root: one delete covers both.
            File.Delete(server.PathOf($"{BenchContext.Folder}/{Target}"));
        }
    }

    private static TestFile Uploaded(TestFile file) => file with { Name = Target };

    private static void Plan(BenchContext context, CaseResult result, ServerUnderTest? server, Func<ServerUnderTest, Func<bool, Task<Transfer>>> transfer)
    {
        if (server is OurServer && context.UploadsMissing is { } missing)
        {
            context.Measurer.Skip(result, missing);
            return;
        }

        context.Plan(result, server, transfer);
    }

    private static async Task VerifyAsync(BenchContext context, ServerUnderTest server, bool verify, string? reported)
    {
        if (!verify)
        {
            return;
        }

        var stored = server.PathOf($"{BenchContext.Folder}/{Target}");
        Measurer.Expect(await TestFiles.Sha256Async(stored) == context.Large.Sha256, $"{server.Name}: the stored file's SHA-256 differs from the source");
        Measurer.Expect(server is not OurServer || reported == context.Large.Sha256, $"{server.Name}: the reported sha256 {reported} differs from the source");
    }

    private static string? ShaOf(string json)
    {
        using var document = JsonDocument.Parse(json);
        return document.RootElement.TryGetProperty("sha256", out var sha) ? sha.GetString() : null;
    }
}
