using System.Text.Json;
using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 3: the large file PUT with <c>curl -T</c> to ours and to both nginx's WebDAV (temp file +
/// rename), to ours also with HttpClient and as multipart. Every warm-up checks the stored file on
/// disk by SHA-256 (and ours's reported sha256).
/// </summary>
internal sealed class UploadCase : IBenchmarkCase
{
    public const string Group = "3. Large upload (ours vs nginx WebDAV PUT)";
    private const string Target = "uploaded.bin";

    public string Name => "upload";

    public int Order => 30;

    public string Description => "the large file PUT with curl -T (ours, both nginx WebDAV), HttpClient PUT and curl -F multipart (ours)";

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        var label = $"upload {BenchContext.Size(file.Size)}";
        // The baseline copy of our server (--baseline-env, --baseline-server) too, for before/after rows.
        foreach (var (name, server) in context.DownloadServers)
        {
            foreach (var http2 in new[] { false, true })
            {
                var result = new CaseResult(Group, label, name, http2 ? "HTTP/2" : "HTTP/1.1", "curl -T");
                context.Plan(result, server, s => async verify =>
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
            context.Plan(result, context.Ours, s => async verify =>
            {
                var (status, sha) = await client.UploadAsync(context.Url(s, http2, Uploaded(file)), file.Path);
                Measurer.Expect((int)status is 200 or 201, $"PUT answered {(int)status}");
                await VerifyAsync(context, s, verify, sha);
                return new Transfer(file.Size);
            });
        }

        var multipart = new CaseResult(Group, label, "ours", "HTTP/1.1", "curl -F (multipart)");
        context.Plan(multipart, context.Ours, s => async verify =>
        {
            var outcome = await CurlClient.UploadMultipartAsync(new Uri(s.Http1, $"api/files?folder={BenchContext.Folder}"), false, file.Path, Target);
            Measurer.Expect(outcome.Status == 201, $"POST answered {outcome.Status}: {outcome.Body}");
            Measurer.Expect(!verify || outcome.Body.Contains(file.Sha256, StringComparison.Ordinal), "multipart: reported sha256 differs");
            return new Transfer(file.Size, outcome.Duration);
        });

        await context.Measurer.RunPlannedAsync();
        foreach (var server in new ServerUnderTest?[] { context.Ours, context.Nginx, context.NginxLog }.OfType<ServerUnderTest>())
        {
            // The baseline shares ours's root: one delete covers both.
            File.Delete(server.PathOf($"{BenchContext.Folder}/{Target}"));
        }
    }

    private static TestFile Uploaded(TestFile file) => file with { Name = Target };

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
