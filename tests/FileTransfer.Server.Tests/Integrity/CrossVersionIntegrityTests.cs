using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Integrity;

/// <summary>
/// A file replaced over and over while REST downloads, REST resumes (<c>Range</c> + <c>If-Range</c>)
/// and gRPC downloads of it run, on real Kestrel: every answer must be exactly one version, and the
/// ETag and digest it announces must be those of the bytes it sent. Two contents of the same size
/// alternate, so that only the bytes tell them apart. Run on each backend (derived classes below).
/// </summary>
public abstract class CrossVersionIntegrityTests : IAsyncLifetime
{
    private const string Name = "race/replaced.bin";
    private const int Size = 256 * 1024;

    private readonly byte[][] _contents = [TestData.RandomBytes(Size), TestData.RandomBytes(Size)];
    private readonly ConcurrentDictionary<string, string> _shaOfEtag = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<Observation> _seen = new();
    private KestrelFactory _server = null!;

    /// <summary>How long the replacing and downloading go on.</summary>
    protected virtual TimeSpan Duration => TimeSpan.FromSeconds(4);

    /// <summary>Fewest answers of each kind (rest, grpc, resume) for the run to prove anything.</summary>
    protected virtual (int Whole, int Grpc, int Resume) Minimums => (50, 50, 20);

    /// <summary>
    /// Whether a read may be refused as a retryable storage failure (503, gRPC UNAVAILABLE, reason
    /// STORAGE_UNAVAILABLE) when the name was replaced between the open and the read: a medium that
    /// cannot keep a replaced version refuses instead of mixing. Such refusals are counted, never
    /// taken as answers; every answer that came must still be one version.
    /// </summary>
    protected virtual bool RefusesReplacedReads => false;

    private int _refused;

    /// <summary>The server on the backend under test (many loops of one client: no rate limit).</summary>
    protected abstract Task<KestrelFactory> CreateServerAsync();

    public async Task InitializeAsync() => _server = await CreateServerAsync();

    public virtual Task DisposeAsync()
    {
        _server?.Dispose();
        return Task.CompletedTask;
    }

    [Fact]
    public async Task Every_Download_During_Replaces_Is_One_Version_With_Its_Own_ETag_And_Digest()
    {
        var http = _server.AddressOf(HttpProtocols.Http1);
        using var writer = KestrelFactory.ClientFor(http, HttpVersion.Version11);
        await PutAsync(writer, 0);
        using var stop = new CancellationTokenSource(Duration);

        var tasks = new List<Task> { WriteLoopAsync(writer, stop.Token) };
        for (var i = 0; i < 3; i++)
        {
            tasks.Add(RestLoopAsync(KestrelFactory.ClientFor(http, HttpVersion.Version11), stop.Token));
            tasks.Add(ResumeLoopAsync(KestrelFactory.ClientFor(http, HttpVersion.Version11), stop.Token));
            tasks.Add(GrpcLoopAsync(GrpcClients.For(_server), stop.Token));
        }

        await Task.WhenAll(tasks);

        var observations = _seen.ToList();
        Assert.True(observations.Count(o => o.Kind == "rest") > Minimums.Whole, $"only {observations.Count} downloads ran");
        Assert.True(observations.Count(o => o.Kind == "grpc") > Minimums.Grpc, $"only {observations.Count(o => o.Kind == "grpc")} gRPC downloads ran");
        Assert.True(observations.Count(o => o.Kind == "resume") > Minimums.Resume, $"only {observations.Count(o => o.Kind == "resume")} resumes got 206");
        Assert.True(RefusesReplacedReads || _refused == 0, $"{_refused} reads were refused");
        Assert.True(_refused < observations.Count, $"{_refused} reads were refused, only {observations.Count} answered");
        var wrong = observations.Where(o => !o.IsConsistent(_shaOfEtag, _contents)).Take(5).ToList();
        Assert.True(wrong.Count == 0, $"{wrong.Count}+ of {observations.Count} answers mixed versions:\n{string.Join('\n', wrong)}");
    }

    private async Task WriteLoopAsync(HttpClient client, CancellationToken stop)
    {
        for (var i = 1; !stop.IsCancellationRequested; i++)
        {
            await PutAsync(client, i % 2);
        }
    }

    private async Task PutAsync(HttpClient client, int content)
    {
        using var response = await client.PutAsync("/api/files/" + Name, new ByteArrayContent(_contents[content]), TestTimeout.Token);
        Assert.True(response.IsSuccessStatusCode, response.StatusCode.ToString());
        _shaOfEtag[response.Headers.ETag!.ToString()] = Sha(_contents[content]);
    }

    private async Task RestLoopAsync(HttpClient client, CancellationToken stop)
    {
        using (client)
        {
            while (!stop.IsCancellationRequested)
            {
                using var response = await client.GetAsync("/api/files/" + Name, TestTimeout.Token);
                var body = await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);
                if (!Refused(response))
                {
                    _seen.Enqueue(new Observation("rest", response.Headers.ETag?.ToString(), ReprDigest(response), Sha(body), 0, null));
                }
            }
        }
    }

    // A client resuming from the middle of the copy it holds: If-Range names its version's ETag.
    private async Task ResumeLoopAsync(HttpClient client, CancellationToken stop)
    {
        using (client)
        {
            while (!stop.IsCancellationRequested)
            {
                using var head = new HttpRequestMessage(HttpMethod.Head, "/api/files/" + Name);
                using var described = await client.SendAsync(head, TestTimeout.Token);
                if (described.Headers.ETag?.ToString() is not { } etag)
                {
                    _seen.Enqueue(new Observation($"head {(int)described.StatusCode}", null, null, "", 0, null));
                    continue;
                }

                var offset = Random.Shared.Next(1, Size);
                using var request = new HttpRequestMessage(HttpMethod.Get, "/api/files/" + Name);
                request.Headers.Range = new RangeHeaderValue(offset, null);
                request.Headers.IfRange = new RangeConditionHeaderValue(etag);
                using var response = await client.SendAsync(request, TestTimeout.Token);
                var body = await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);
                if (Refused(response))
                {
                    continue;
                }

                var partial = response.StatusCode == HttpStatusCode.PartialContent;
                _seen.Enqueue(new Observation(partial ? "resume" : "rest", response.Headers.ETag?.ToString(), ReprDigest(response), Sha(body), partial ? offset : 0, partial ? etag : null));
            }
        }
    }

    private async Task GrpcLoopAsync(FileService.FileServiceClient client, CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            using var call = client.DownloadFile(new DownloadFileRequest { FileName = Name }, cancellationToken: TestTimeout.Token);
            using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            FileMetadata? metadata = null;
            try
            {
                await foreach (var message in call.ResponseStream.ReadAllAsync(TestTimeout.Token))
                {
                    if (message.DataCase == DownloadFileResponse.DataOneofCase.Metadata)
                    {
                        metadata = message.Metadata;
                    }
                    else
                    {
                        hash.AppendData(message.Chunk.Span);
                    }
                }
            }
            catch (RpcException refused) when (RefusesReplacedReads && refused.StatusCode == StatusCode.Unavailable && refused.Status.Detail.Contains("was replaced", StringComparison.Ordinal))
            {
                Interlocked.Increment(ref _refused);
                continue;
            }

            _seen.Enqueue(new Observation("grpc", metadata!.Etag, Convert.ToHexString(metadata.Sha256.Span), Convert.ToHexString(hash.GetHashAndReset()), 0, null));
        }
    }

    // A refusal (not an answer) of a read whose version was replaced under it, where the backend may refuse.
    private bool Refused(HttpResponseMessage response)
    {
        if (!RefusesReplacedReads || response.StatusCode != HttpStatusCode.ServiceUnavailable)
        {
            return false;
        }

        Interlocked.Increment(ref _refused);
        return true;
    }

    private static string? ReprDigest(HttpResponseMessage response) =>
        response.Headers.TryGetValues("Repr-Digest", out var values)
            ? Convert.ToHexString(Convert.FromBase64String(values.Single()["sha-256=:".Length..^1]))
            : null;

    private static string Sha(byte[] bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    /// <param name="Kind">rest (whole file), resume (a 206 from <paramref name="Offset"/>), grpc.</param>
    /// <param name="ETag">The ETag the answer announced.</param>
    /// <param name="Digest">The SHA-256 of the whole file the answer announced (Repr-Digest, gRPC sha256).</param>
    /// <param name="BodySha">The SHA-256 of the bytes that arrived.</param>
    /// <param name="Offset">Where a resume's bytes start.</param>
    /// <param name="IfRange">The ETag a resume sent in If-Range.</param>
    private sealed record Observation(string Kind, string? ETag, string? Digest, string BodySha, int Offset, string? IfRange)
    {
        public bool IsConsistent(IReadOnlyDictionary<string, string> shaOfEtag, byte[][] contents)
        {
            if (ETag is null || Digest is null || !shaOfEtag.TryGetValue(ETag, out var versionSha) || versionSha != Digest)
            {
                return false; // the ETag and the digest announced belong to different versions
            }

            if (Kind != "resume")
            {
                return BodySha == Digest;
            }

            // RFC 9110 13.1.5: a 206 to If-Range is the range of the version the client named.
            var named = contents.Single(c => Sha(c) == shaOfEtag[IfRange!]);
            return ETag == IfRange && BodySha == Sha(named[Offset..]);
        }
    }
}

/// <summary>On the local disk: a download holds its open file while renames replace the name.</summary>
public sealed class LocalCrossVersionIntegrityTests : CrossVersionIntegrityTests
{
    protected override Task<KestrelFactory> CreateServerAsync() =>
        Task.FromResult((KestrelFactory)new KestrelFactory().With("RateLimit:Enabled", "false"));
}

/// <summary>
/// On the S3 backend and the real RGW: every read is a ranged GET pinned to the opened version's ETag,
/// so a replace in between fails the read instead of mixing versions. Each request costs a few store
/// requests, so the run is longer and asks for fewer answers.
/// </summary>
public sealed class S3CrossVersionIntegrityTests : CrossVersionIntegrityTests
{
    private readonly string _bucket = CephRgw.NewBucketName();
    private CephRgw? _rgw;

    protected override TimeSpan Duration => TimeSpan.FromSeconds(8);

    protected override (int Whole, int Grpc, int Resume) Minimums => (20, 20, 10);

    protected override bool RefusesReplacedReads => true;

    protected override async Task<KestrelFactory> CreateServerAsync()
    {
        _rgw = await CephRgw.GetAsync();
        return (KestrelFactory)new KestrelFactory().OnS3(_rgw, _bucket).With("RateLimit:Enabled", "false");
    }

    public override async Task DisposeAsync()
    {
        await base.DisposeAsync();
        if (_rgw is not null)
        {
            using var client = _rgw.CreateClient();
            await S3Buckets.DeleteAsync(client, _bucket);
        }
    }
}
