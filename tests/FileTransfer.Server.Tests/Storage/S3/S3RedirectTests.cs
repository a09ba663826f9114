using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Web;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Interop;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// <c>Storage:S3:RedirectDownloads</c> on real Kestrel and the real RGW: a GET that would send bytes
/// answers 307 to a presigned URL, which curl follows to the exact bytes (and ranges, served by the
/// store); HEAD, 304, 412 and 416 are answered by the server as before; a signed link's expiry
/// bounds the URL's; gRPC clients ask for the same URL with GetDownloadUrl.
/// </summary>
public sealed class S3RedirectTests(S3RedirectingServer fixture) : IClassFixture<S3RedirectingServer>, IDisposable
{
    private readonly TempStorage _downloads = new();
    private readonly Uri _http = fixture.Server.AddressOf(HttpProtocols.Http1);

    [Theory]
    [InlineData(1)]
    [InlineData(1_234_567)]
    [InlineData((9 * 1024 * 1024) + 3)]
    public async Task Curl_Follows_The_Redirect_To_The_Exact_Bytes(int size)
    {
        var source = await PutAsync($"redirect/{size}.bin", size);
        var output = Path.Combine(_downloads.RootPath, "out.bin");

        var (exitCode, stdout) = await CurlAsync("-sS", "--fail", "-L", "-H", ExternalTool.AuthorizationHeader, "-w", "%{num_redirects} %{http_code}", "-o", output, Url($"redirect/{size}.bin"));

        Assert.True(exitCode == 0, stdout);
        Assert.Equal("1 200", stdout);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Fact]
    public async Task A_Range_Is_Honoured_By_The_Store_Behind_The_Redirect()
    {
        var source = await PutAsync("redirect/range.bin", 3_000_000);
        var output = Path.Combine(_downloads.RootPath, "range.bin");

        var (exitCode, stdout) = await CurlAsync("-sS", "--fail", "-L", "-r", "1000-2000999", "-H", ExternalTool.AuthorizationHeader, "-w", "%{http_code}", "-o", output, Url("redirect/range.bin"));

        Assert.True(exitCode == 0, stdout);
        Assert.Equal("206", stdout);
        Assert.Equal(TempStorage.Sha256(source[1000..2001000]), TempStorage.Sha256(await File.ReadAllBytesAsync(output, TestTimeout.Token)));
    }

    [Fact]
    public async Task The_Redirect_Is_A_Fresh_Presigned_Url_Of_The_Store_That_No_Cache_Keeps()
    {
        await PutAsync("redirect/headers.html", 100);
        using var client = Client();

        using var response = await client.GetAsync("/api/files/redirect/headers.html", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.TemporaryRedirect, response.StatusCode);
        var location = response.Headers.Location!;
        Assert.Equal(fixture.Rgw.ServiceUrl.Authority, location.Authority);
        Assert.Equal($"/{fixture.Bucket}/redirect/headers.html", location.AbsolutePath);
        var query = HttpUtility.ParseQueryString(location.Query);
        Assert.Equal("AWS4-HMAC-SHA256", query["X-Amz-Algorithm"]);
        // The SDK counts from its own clock, corrected by the store's (whole-second) Date: within a second of the setting.
        Assert.InRange(int.Parse(query["X-Amz-Expires"]!, System.Globalization.CultureInfo.InvariantCulture), 299, 301);
        Assert.Equal("text/html", query["response-content-type"]);
        Assert.StartsWith("attachment", query["response-content-disposition"], StringComparison.Ordinal);
        Assert.True(response.Headers.CacheControl?.NoStore);
        Assert.Equal(0, response.Content.Headers.ContentLength);
        Assert.Null(response.Headers.ETag);
        Assert.False(response.Headers.Contains("Repr-Digest"));
    }

    [Fact]
    public async Task The_Store_Sends_The_Content_Type_And_Disposition_The_Server_Would_Send()
    {
        await PutAsync("redirect/page.html", 100);

        var (exitCode, stdout) = await CurlAsync("-sS", "--fail", "-L", "-H", ExternalTool.AuthorizationHeader, "-D", "-", "-o", "/dev/null", Url("redirect/page.html"));

        Assert.True(exitCode == 0, stdout);
        var final = stdout[stdout.LastIndexOf("HTTP/", StringComparison.Ordinal)..];
        Assert.Contains("Content-Type: text/html", final, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Content-Disposition: attachment; filename=page.html", final, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Head_Conditional_And_Unsatisfiable_Requests_Are_Answered_By_The_Server()
    {
        await PutAsync("redirect/cond.bin", 1000);
        using var client = Client();
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/redirect/cond.bin"), TestTimeout.Token);
        var etag = head.Headers.ETag!;

        using var notModified = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/cond.bin") { Headers = { IfNoneMatch = { etag } } }, TestTimeout.Token);
        using var stale = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/cond.bin") { Headers = { IfMatch = { new EntityTagHeaderValue("\"0123\"") } } }, TestTimeout.Token);
        using var pastEnd = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/cond.bin") { Headers = { Range = new RangeHeaderValue(5000, null) } }, TestTimeout.Token);
        using var matching = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/cond.bin") { Headers = { IfMatch = { etag } } }, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.OK, head.StatusCode);
        Assert.Equal(1000, head.Content.Headers.ContentLength);
        Assert.True(head.Headers.Contains("Repr-Digest"));
        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal(HttpStatusCode.PreconditionFailed, stale.StatusCode);
        Assert.Equal(HttpStatusCode.RequestedRangeNotSatisfiable, pastEnd.StatusCode);
        Assert.Equal(HttpStatusCode.TemporaryRedirect, matching.StatusCode);
        Assert.All(new[] { notModified, stale, pastEnd }, response => Assert.Null(response.Headers.Location));
    }

    [Fact]
    public async Task A_Signed_Links_Redirect_Expires_No_Later_Than_The_Link()
    {
        var source = await PutAsync("redirect/linked.bin", 5000);
        using var issuer = Client();
        var link = await Security.SignedLinkTests.IssueAsync(issuer, new { path = "redirect/linked.bin", access = "read", expiresInSeconds = 20 });
        using var anonymous = new HttpClient(new SocketsHttpHandler { AllowAutoRedirect = false }) { BaseAddress = _http };

        using var redirect = await anonymous.GetAsync($"/api/files/redirect/linked.bin?sig={link.Token}", TestTimeout.Token);
        using var other = await anonymous.GetAsync($"/api/files/redirect/cond.bin?sig={link.Token}", TestTimeout.Token);

        Assert.Equal(HttpStatusCode.TemporaryRedirect, redirect.StatusCode);
        Assert.InRange(int.Parse(HttpUtility.ParseQueryString(redirect.Headers.Location!.Query)["X-Amz-Expires"]!, System.Globalization.CultureInfo.InvariantCulture), 1, 20);
        Assert.Equal(HttpStatusCode.Forbidden, other.StatusCode);
        using var store = new HttpClient();
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await store.GetByteArrayAsync(redirect.Headers.Location, TestTimeout.Token)));
    }

    [Fact]
    public async Task GetDownloadUrl_Gives_gRPC_Clients_The_Same_Presigned_Url()
    {
        var source = await PutAsync("redirect/grpc.bin", 200_000);
        var grpc = GrpcClients.For(fixture.Server);

        var answer = await grpc.GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = "redirect/grpc.bin" }, cancellationToken: TestTimeout.Token);
        using var store = new HttpClient();
        using var ranged = new HttpRequestMessage(HttpMethod.Get, answer.Url) { Headers = { Range = new RangeHeaderValue(100, 199) } };
        using var range = await store.SendAsync(ranged, TestTimeout.Token);
        var stale = await Assert.ThrowsAsync<RpcException>(async () =>
            await grpc.GetDownloadUrlAsync(new GetDownloadUrlRequest { FileName = "redirect/grpc.bin", IfMatch = "\"0123\"" }, cancellationToken: TestTimeout.Token));

        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await store.GetByteArrayAsync(answer.Url, TestTimeout.Token)));
        Assert.Equal(HttpStatusCode.PartialContent, range.StatusCode);
        Assert.Equal(source[100..200], await range.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        Assert.Equal("redirect/grpc.bin", answer.Metadata.FileName);
        Assert.Equal(GrpcTransfers.Sha256Hex(source), Convert.ToHexString(answer.Metadata.Sha256.Span));
        Assert.InRange(answer.ExpiresAt.ToDateTimeOffset(), DateTimeOffset.UtcNow.AddSeconds(290), DateTimeOffset.UtcNow.AddSeconds(301));
        Assert.Equal(StatusCode.FailedPrecondition, stale.StatusCode);
        Assert.Equal("ETAG_MISMATCH", GrpcAssert.Reason(stale));
    }

    /// <summary>
    /// A client resumes a download after the file was replaced, with <c>Range</c> and a stale
    /// <c>If-Range</c> (the ETag or the date it got with the first bytes), following redirects. RGW
    /// ignores If-Range: redirected, the store would answer 206 with the new version's tail. The server
    /// answers such a request itself: 200 with the whole new version, so the client ends with exactly one.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task A_Stale_If_Range_Resume_Through_A_Redirecting_Server_Ends_With_The_Bytes_Of_Exactly_One_Version(bool byDate)
    {
        const int Size = 2_000_000;
        const int Cut = 700_000;
        var old = await PutAsync("redirect/resumed.bin", Size);
        using var client = KestrelFactory.ClientFor(_http, HttpVersion.Version11, new SocketsHttpHandler { AllowAutoRedirect = true });

        // The first bytes, through the redirect, as a download that breaks would have them.
        byte[] head;
        string validator;
        using (var first = await client.GetAsync("/api/files/redirect/resumed.bin", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.OK, first.StatusCode);
            Assert.NotEqual(_http.Authority, first.RequestMessage!.RequestUri!.Authority);
            validator = byDate ? first.Content.Headers.LastModified!.Value.ToString("R") : first.Headers.ETag!.ToString();
            await using var body = await first.Content.ReadAsStreamAsync(TestTimeout.Token);
            head = new byte[Cut];
            await body.ReadExactlyAsync(head, TestTimeout.Token);
        }

        // Replaced meanwhile (a second later, so that the date validator differs too).
        await Task.Delay(TimeSpan.FromSeconds(1.1), TestTimeout.Token);
        var current = await PutAsync("redirect/resumed.bin", Size);
        using var resume = new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/resumed.bin");
        resume.Headers.Range = new RangeHeaderValue(Cut, null);
        resume.Headers.TryAddWithoutValidation("If-Range", validator);
        using var response = await client.SendAsync(resume, TestTimeout.Token);
        var rest = await response.Content.ReadAsByteArrayAsync(TestTimeout.Token);

        // RFC 9110 13.1.5: 206 continues the bytes held; 200 replaces them.
        var assembled = response.StatusCode == HttpStatusCode.PartialContent ? [.. head, .. rest] : rest;
        var sha = TempStorage.Sha256(assembled);
        Assert.True(sha == TempStorage.Sha256(old) || sha == TempStorage.Sha256(current), $"{response.StatusCode}: the bytes of two versions");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(TempStorage.Sha256(current), sha);
        Assert.Equal(_http.Authority, response.RequestMessage!.RequestUri!.Authority);
    }

    [Fact]
    public async Task A_Range_With_A_Current_If_Range_Is_Served_By_The_Server_As_206_And_One_Without_Conditions_Is_Still_Redirected()
    {
        var source = await PutAsync("redirect/if-range.bin", 100_000);
        using var client = Client();
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/api/files/redirect/if-range.bin"), TestTimeout.Token);
        using var resume = new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/if-range.bin");
        resume.Headers.Range = new RangeHeaderValue(90_000, null);
        resume.Headers.TryAddWithoutValidation("If-Range", head.Headers.ETag!.ToString());
        using var list = new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/if-range.bin");
        list.Headers.TryAddWithoutValidation("If-Match", $"\"other\", {head.Headers.ETag}");
        using var plain = new HttpRequestMessage(HttpMethod.Get, "/api/files/redirect/if-range.bin");
        plain.Headers.Range = new RangeHeaderValue(90_000, null);

        using var served = await client.SendAsync(resume, TestTimeout.Token);
        using var listed = await client.SendAsync(list, TestTimeout.Token);
        using var redirected = await client.SendAsync(plain, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.PartialContent, served.StatusCode);
        Assert.Equal(source[90_000..], await served.Content.ReadAsByteArrayAsync(TestTimeout.Token));
        Assert.Equal(HttpStatusCode.OK, listed.StatusCode);
        Assert.Equal(HttpStatusCode.TemporaryRedirect, redirected.StatusCode);
    }

    private async Task<byte[]> PutAsync(string name, int size)
    {
        var bytes = TestData.RandomBytes(size);
        using var client = Client();
        using var response = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(bytes), TestTimeout.Token);
        Assert.True(response.IsSuccessStatusCode, response.StatusCode.ToString());
        return bytes;
    }

    private HttpClient Client() => KestrelFactory.ClientFor(_http, HttpVersion.Version11, new SocketsHttpHandler { AllowAutoRedirect = false });

    private string Url(string name) => new Uri(_http, $"/api/files/{name}").ToString();

    private static async Task<(int ExitCode, string Stdout)> CurlAsync(params string[] arguments)
    {
        var (exitCode, output, error) = await ExternalTool.RunAsync("curl", arguments);
        return (exitCode, Encoding.UTF8.GetString(output) + error);
    }

    public void Dispose() => _downloads.Dispose();
}
