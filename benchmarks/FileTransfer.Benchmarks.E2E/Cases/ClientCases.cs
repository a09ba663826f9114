using FileTransfer.Benchmarks.E2E.Clients;
using FileTransfer.Benchmarks.E2E.Infrastructure;
using FileTransfer.Benchmarks.E2E.Reporting;
using FileTransfer.Client;

namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>
/// Case 4: the product's own clients against ours, beside curl. The large file downloaded to a
/// file with curl (HTTP/1.1; also to /dev/null), with the CLI and with the client library over
/// REST HTTP/1.1, REST HTTP/2 and gRPC, both verifying the SHA-256 the server announces; and
/// uploaded with curl -T, the CLI and the library over REST HTTP/1.1 and gRPC. The CLI is the native
/// executable docs/cli.md installs; one more row downloads with it as a dotnet tool (JIT). The goals
/// "gRPC at least 0.9x REST with the product's library and CLI" and "the CLI at least 0.9x curl" are
/// read from these rows.
/// </summary>
internal sealed class ClientCases : IBenchmarkCase
{
    public const string Group = "4. The product's clients (library, CLI) beside curl, against ours";
    public const string RestHttp1 = "REST HTTP/1.1";
    public const string RestHttp2 = "REST HTTP/2";
    public const string CurlToFile = "curl -o FILE";
    private const string Uploaded = "uploaded-client.bin";

    public string Name => "clients";

    public int Order => 40;

    public string Description => "downloads and uploads with the product's client library and CLI (REST HTTP/1.1, HTTP/2, gRPC) beside curl, against ours";

    public async Task RunAsync(BenchContext context)
    {
        var file = context.Large;
        var ours = context.Ours;
        var received = Path.Combine(context.WorkDirectory, "client-received.bin");
        var download = $"download {BenchContext.Size(file.Size)}";
        var upload = $"upload {BenchContext.Size(file.Size)}";
        var uploadName = $"{BenchContext.Folder}/{Uploaded}";
        (string Protocol, bool Grpc, bool Http2)[] protocols = [(RestHttp1, false, false), (RestHttp2, false, true), (GrpcCases.Grpc, true, false)];

        // This commit's native CLI, and with --baseline-cli the build before a change beside it (round-robin).
        CliBuild[] clis = context.Options.BaselineCli is { } before ? [CliBuild.This, CliBuild.Before(before)] : [CliBuild.This];
        var libraries = new Dictionary<string, LibraryClient>();
        try
        {
            // Issue 26's start-up goal: the native CLI's --version, a process of its own each run.
            context.Plan(new CaseResult(Group, Targets.CliVersionRow, "ours", "–", CliClient.Label), ours, _ => async _ => new Transfer(0, await CliClient.VersionAsync()));
            context.Plan(new CaseResult(Group, download, "ours", RestHttp1, CurlToFile), ours, s => async verify =>
            {
                var outcome = await CurlClient.DownloadAsync(context.Url(s, false, file), false, received);
                Measurer.Expect(outcome.Status == 200 && outcome.Bytes == file.Size, $"curl: status {outcome.Status}, {outcome.Bytes} bytes");
                await CheckAndDeleteAsync(received, file, verify);
                return new Transfer(outcome.Bytes, outcome.Duration);
            });
            context.Plan(new CaseResult(Group, download, "ours", RestHttp1, "curl -o /dev/null"), ours, s => async _ =>
            {
                var outcome = await CurlClient.DownloadAsync(context.Url(s, false, file), false, "/dev/null");
                Measurer.Expect(outcome.Status == 200 && outcome.Bytes == file.Size, $"curl: status {outcome.Status}, {outcome.Bytes} bytes");
                return new Transfer(outcome.Bytes, outcome.Duration);
            });

            foreach (var (protocol, grpc, http2) in protocols)
            {
                var server = grpc || http2 ? ours.Http2 : ours.Http1;
                // Over REST HTTP/1.1 also the same code as a dotnet tool (JIT): what the native build saves.
                CliBuild[] downloaders = !grpc && !http2 ? [.. clis, CliBuild.Tool] : clis;
                foreach (var cli in downloaders)
                {
                    context.Plan(new CaseResult(Group, download, "ours", protocol, cli.Label), ours, _ => async verify =>
                    {
                        string[] quiet = verify ? [] : ["--quiet"];
                        var (duration, output) = await CliClient.RunAsync(cli, server, grpc, http2, ["download", BenchContext.GrpcName(file), "--output", received, .. quiet]);
                        Measurer.Expect(!verify || output.Contains(" verified)", StringComparison.Ordinal), $"the CLI did not say the download was verified: {output}");
                        await CheckAndDeleteAsync(received, file, verify);
                        return new Transfer(file.Size, duration);
                    });
                }

                var library = new LibraryClient(server, grpc ? FileTransferProtocol.Grpc : FileTransferProtocol.Rest, grpc ? null : http2 ? System.Net.HttpVersion.Version20 : System.Net.HttpVersion.Version11);
                libraries[protocol] = library;
                context.Plan(new CaseResult(Group, download, "ours", protocol, LibraryClient.Label), ours, _ => async verify =>
                {
                    var (bytes, duration) = await library.DownloadAsync(BenchContext.GrpcName(file), received);
                    Measurer.Expect(bytes == file.Size, $"the library received {bytes} of {file.Size} bytes");
                    await CheckAndDeleteAsync(received, file, verify);
                    return new Transfer(bytes, duration);
                });
            }

            await context.Measurer.RunPlannedAsync();

            context.Plan(new CaseResult(Group, upload, "ours", RestHttp1, "curl -T"), ours, s => async verify =>
            {
                var outcome = await CurlClient.UploadAsync(s.FileUrl(false, uploadName), false, file.Path);
                Measurer.Expect(outcome.Status is 200 or 201, $"PUT answered {outcome.Status}: {outcome.Body}");
                await CheckStoredAsync(s, uploadName, file, verify);
                return new Transfer(file.Size, outcome.Duration);
            });
            foreach (var (protocol, grpc, http2) in protocols.Where(p => !p.Http2))
            {
                var server = grpc ? ours.Http2 : ours.Http1;
                foreach (var cli in clis)
                {
                    context.Plan(new CaseResult(Group, upload, "ours", protocol, cli.Label), ours, s => async verify =>
                    {
                        string[] quiet = verify ? [] : ["--quiet"];
                        var (duration, output) = await CliClient.RunAsync(cli, server, grpc, http2, ["upload", file.Path, uploadName, .. quiet]);
                        Measurer.Expect(!verify || output.Contains(file.Sha256, StringComparison.Ordinal), $"the CLI did not report the file's SHA-256: {output}");
                        await CheckStoredAsync(s, uploadName, file, verify);
                        return new Transfer(file.Size, duration);
                    });
                }

                var library = libraries[protocol];
                context.Plan(new CaseResult(Group, upload, "ours", protocol, LibraryClient.Label), ours, s => async verify =>
                {
                    var (sha, duration) = await library.UploadAsync(file.Path, uploadName);
                    Measurer.Expect(sha == file.Sha256, $"the library reported sha256 {sha}");
                    await CheckStoredAsync(s, uploadName, file, verify);
                    return new Transfer(file.Size, duration);
                });
            }

            await context.Measurer.RunPlannedAsync();
            File.Delete(ours.PathOf(uploadName));
        }
        finally
        {
            foreach (var library in libraries.Values)
            {
                library.Dispose();
            }
        }
    }

    /// <summary>Compares the received file with the source in the warm-up; deletes it (the next run starts afresh, no resume).</summary>
    private static async Task CheckAndDeleteAsync(string path, TestFile file, bool verify)
    {
        Measurer.Expect(!verify || await TestFiles.Sha256Async(path) == file.Sha256, "SHA-256 of the received file differs from the source");
        File.Delete(path);
        File.Delete(path + ".part");
        File.Delete(path + ".part.etag");
    }

    private static async Task CheckStoredAsync(ServerUnderTest server, string name, TestFile file, bool verify) =>
        Measurer.Expect(!verify || await TestFiles.Sha256Async(server.PathOf(name)) == file.Sha256, $"{server.Name}: the stored file differs from the source");
}
