using System.Net;
using System.Net.Http.Headers;
using System.Text;
using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Google.Rpc;
using Grpc.Core;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Contracts;

/// <summary>
/// Every refusal, whoever decides it (the core, routing, model binding, Kestrel's body limit, the
/// framework's download evaluator, a bug), is one problem with a <c>reason</c> on REST and a status
/// with an ErrorInfo reason on gRPC; <c>Retry-After</c> (gRPC: RetryInfo) comes with exactly the
/// reasons that are transient (RATE_LIMITED has its own tests, the limiter's own wait; UPLOAD_BUSY is
/// in GrpcUploadSessionTests, with the two writers it needs).
/// </summary>
public sealed class ProblemContractTests(ProblemContractTests.Server server) : IClassFixture<ProblemContractTests.Server>
{
    private const string ReadOnlyKey = "read-only-key-for-problem-contract-0123";

    private static readonly string[] Transient = ["RATE_LIMITED", "STORAGE_UNAVAILABLE", "UPLOAD_BUSY", "HOOK_UNAVAILABLE"];

    public static TheoryData<string, string, string?, string?, HttpStatusCode, string> Refusals() => new()
    {
        // method, path, body type (a small body of that type), key, status, reason
        { "GET", "/no/such/route", null, FileTransferFactory.TestKey, HttpStatusCode.NotFound, "ROUTE_NOT_FOUND" },
        { "DELETE", "/api/links", null, FileTransferFactory.TestKey, HttpStatusCode.MethodNotAllowed, "METHOD_NOT_ALLOWED" },
        { "POST", "/openapi/v1.json", null, null, HttpStatusCode.MethodNotAllowed, "METHOD_NOT_ALLOWED" },
        { "POST", "/api/links", "text/plain", FileTransferFactory.TestKey, HttpStatusCode.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE" },
        { "POST", "/api/links", "application/json", FileTransferFactory.TestKey, HttpStatusCode.BadRequest, "MALFORMED_MESSAGE" },
        { "POST", "/api/files", "text/plain", FileTransferFactory.TestKey, HttpStatusCode.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE" },
        { "POST", "/filetransfer.v1.FileService/ListFiles", "application/json", FileTransferFactory.TestKey, HttpStatusCode.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE" },
        { "GET", "/api/files?pageSize=many", null, FileTransferFactory.TestKey, HttpStatusCode.BadRequest, "MALFORMED_MESSAGE" },
        { "GET", "/api/files/a%5C..%5Cb", null, FileTransferFactory.TestKey, HttpStatusCode.BadRequest, "INVALID_FILE_NAME" },
        { "GET", "/api/files", null, null, HttpStatusCode.Unauthorized, "UNAUTHENTICATED" },
        { "DELETE", "/api/files/here.bin", null, ReadOnlyKey, HttpStatusCode.Forbidden, "PERMISSION_DENIED" },
        { "GET", "/api/files/missing.bin", null, FileTransferFactory.TestKey, HttpStatusCode.NotFound, "FILE_NOT_FOUND" },
        { "GET", "/api/files/down.bin", null, FileTransferFactory.TestKey, HttpStatusCode.ServiceUnavailable, "STORAGE_UNAVAILABLE" },
        { "GET", "/api/files/bug.bin", null, FileTransferFactory.TestKey, HttpStatusCode.InternalServerError, "INTERNAL_ERROR" },
        { "PUT", "/api/files/bug.bin", "application/octet-stream", FileTransferFactory.TestKey, HttpStatusCode.InternalServerError, "INTERNAL_ERROR" },
    };

    [Theory]
    [MemberData(nameof(Refusals))]
    public async Task Every_Refusal_Is_A_Problem_With_Its_Reason_And_Retry_After_Only_When_Transient(string method, string path, string? bodyType, string? key, HttpStatusCode status, string reason)
    {
        using var client = server.Client(key);
        using var request = new HttpRequestMessage(new HttpMethod(method), path);
        if (bodyType is not null)
        {
            request.Content = new StringContent("{", Encoding.UTF8);
            request.Content.Headers.ContentType = new MediaTypeHeaderValue(bodyType);
        }

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await AssertRefusalAsync(response, status, reason);
    }

    [Fact]
    public async Task The_Downloads_412_And_416_Are_Problems_With_Their_Reasons_And_Keep_Their_Headers()
    {
        using var client = server.Client(FileTransferFactory.TestKey);

        using var stale = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/here.bin") { Headers = { IfMatch = { new EntityTagHeaderValue("\"stale\"") } } }, TestTimeout.Token);
        using var pastEnd = await client.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/api/files/here.bin") { Headers = { Range = new RangeHeaderValue(500, null) } }, TestTimeout.Token);

        await AssertRefusalAsync(stale, HttpStatusCode.PreconditionFailed, "ETAG_MISMATCH");
        Assert.NotNull(stale.Headers.ETag);
        await AssertRefusalAsync(pastEnd, HttpStatusCode.RequestedRangeNotSatisfiable, "OFFSET_PAST_END");
        Assert.Equal(100, pastEnd.Content.Headers.ContentRange?.Length);
    }

    [Fact]
    public async Task A_Body_Over_Kestrels_Limit_Is_413_With_Its_Reason()
    {
        // api/links keeps Kestrel's default request body limit (30,000,000 bytes); only uploads lift it.
        using var client = server.Client(FileTransferFactory.TestKey);
        using var request = new HttpRequestMessage(HttpMethod.Post, "/api/links") { Content = new ByteArrayContent(new byte[30_000_001]) };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        request.Headers.ExpectContinue = true;

        using var response = await client.SendAsync(request, TestTimeout.Token);

        await AssertRefusalAsync(response, HttpStatusCode.RequestEntityTooLarge, "FILE_TOO_LARGE");
    }

    [Fact]
    public async Task A_Tus_Append_Of_Another_Type_Is_415_With_Its_Reason()
    {
        using var client = server.Client(FileTransferFactory.TestKey);
        var upload = await Tus.CreateAsync(client, "contract/tus.bin", 10);
        using var patch = Tus.Patch(upload, 0, new byte[10]);
        patch.Content!.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");

        using var response = await client.SendAsync(patch, TestTimeout.Token);

        await AssertRefusalAsync(response, HttpStatusCode.UnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE");
    }

    [Fact]
    public async Task Every_Grpc_Refusal_Carries_Its_Reason_And_Retry_Info_Only_When_Transient()
    {
        var grpc = GrpcClients.For(server);
        using var channel = GrpcClients.Channel(server.AddressOf(HttpProtocols.Http2));
        var invoker = channel.CreateCallInvoker();

        AssertStatus(await RefusedAsync(grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = "missing.bin" }, cancellationToken: TestTimeout.Token).ResponseAsync), StatusCode.NotFound, "FILE_NOT_FOUND");
        AssertStatus(await RefusedAsync(grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = "down.bin" }, cancellationToken: TestTimeout.Token).ResponseAsync), StatusCode.Unavailable, "STORAGE_UNAVAILABLE");
        AssertStatus(await RefusedAsync(grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = "bug.bin" }, cancellationToken: TestTimeout.Token).ResponseAsync), StatusCode.Unknown, "INTERNAL_ERROR");
        AssertStatus(await RefusedAsync(Call(invoker, "filetransfer.v1.FileService", "NoSuchMethod")), StatusCode.Unimplemented, "ROUTE_NOT_FOUND");
        AssertStatus(await RefusedAsync(Call(invoker, "nosuch.v1.Service", "Call")), StatusCode.Unimplemented, "ROUTE_NOT_FOUND");
    }

    [Fact]
    public async Task Routing_Never_Answers_A_415_Of_Its_Own()
    {
        // Every endpoint that declares the body types it consumes, sent a type it does not: the
        // answer is ours, with a reason (a route of ours takes every other type), never routing's
        // bare 415, which UnmatchedRequests could not tell from its 405.
        var consuming = server.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Where(e => e.Metadata.GetMetadata<IAcceptsMetadata>() is { ContentTypes.Count: > 0 })
            .ToList();
        using var client = server.Client(FileTransferFactory.TestKey);

        Assert.NotEmpty(consuming);
        foreach (var endpoint in consuming)
        {
            var path = "/" + string.Join('/', endpoint.RoutePattern.PathSegments.Select(segment => segment.IsSimple && segment.Parts[0] is RoutePatternLiteralPart literal ? literal.Content : "x"));
            using var request = new HttpRequestMessage(new HttpMethod(endpoint.Metadata.GetMetadata<IHttpMethodMetadata>()!.HttpMethods[0]), path)
            {
                Content = new StringContent("unconsumed", Encoding.UTF8, "application/x-unconsumed"),
            };

            using var response = await client.SendAsync(request, TestTimeout.Token);

            var problem = await Problems.AssertAsync(response, response.StatusCode);
            Assert.True(problem.TryGetProperty("reason", out _), $"{request.Method} {path}: {response.StatusCode} without a reason");
        }
    }

    private static async Task AssertRefusalAsync(HttpResponseMessage response, HttpStatusCode status, string reason)
    {
        var problem = await Problems.AssertAsync(response, status);
        Assert.Equal(reason, problem.TryGetProperty("reason", out var value) ? value.GetString() : null);
        Assert.Equal(Transient.Contains(reason), response.Headers.RetryAfter is not null);
        if (response.Headers.RetryAfter is { } retryAfter && reason != "RATE_LIMITED")
        {
            Assert.Equal(TimeSpan.FromSeconds(1), retryAfter.Delta);
        }
    }

    private void AssertStatus(RpcException error, StatusCode code, string reason)
    {
        Assert.Equal(code, error.StatusCode);
        Assert.Equal(reason, GrpcAssert.Reason(error));
        var retry = error.GetRpcStatus()!.GetDetail<RetryInfo>();
        Assert.Equal(Transient.Contains(reason), retry is not null);
        GrpcAssert.IsClean(error, server.Storage.RootPath);
    }

    private static async Task<RpcException> RefusedAsync(Task call) => await Assert.ThrowsAsync<RpcException>(() => call);

    private static Task<Empty> Call(CallInvoker invoker, string service, string method)
    {
        var empty = Marshallers.Create((Empty message) => message.ToByteArray(), Empty.Parser.ParseFrom);
        return invoker.AsyncUnaryCall(new Method<Empty, Empty>(MethodType.Unary, service, method, empty, empty), null, new CallOptions(cancellationToken: TestTimeout.Token), new Empty()).ResponseAsync;
    }

    /// <summary>
    /// The server on real Kestrel, over a backend that is the local disk except for two kinds of
    /// name: <c>down*</c> finds the store not answering, <c>bug*</c> meets a fault nobody foresaw.
    /// </summary>
    public sealed class Server : IDisposable
    {
        private readonly KestrelFactory _factory = new();

        public Server()
        {
            _factory.With("Auth:ApiKeys:1:Key", ReadOnlyKey).With("Auth:ApiKeys:1:Scopes:0", "read");
            _factory.WithServices(services => services.AddSingleton<IStorageBackend>(sp =>
                new FaultyBackend(sp.GetRequiredService<FileTransfer.Storage.Local.LocalStorageBackend>())));
            _factory.Storage.WriteRandom("here.bin", 100);
            _factory.AddressOf(HttpProtocols.Http1);
        }

        public TempStorage Storage => _factory.Storage;

        public IServiceProvider Services => _factory.Services;

        public Uri AddressOf(HttpProtocols protocols) => _factory.AddressOf(protocols);

        public static implicit operator KestrelFactory(Server server) => server._factory;

        public HttpClient Client(string? key)
        {
            var client = KestrelFactory.ClientFor(_factory.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
            client.DefaultRequestHeaders.Authorization = key is null ? null : new AuthenticationHeaderValue("Bearer", key);
            return client;
        }

        public void Dispose() => _factory.Dispose();
    }

    private sealed class FaultyBackend(IStorageBackend inner) : IStorageBackend
    {
        public string Location => inner.Location;

        public ValueTask<StoredObject?> StatAsync(string name, CancellationToken cancellationToken) => Fault(name, () => inner.StatAsync(name, cancellationToken));

        public ValueTask<IOpenedObject?> OpenAsync(string name, CancellationToken cancellationToken) => Fault(name, () => inner.OpenAsync(name, cancellationToken));

        public ValueTask<ObjectPage> ListAsync(ListRequest request, CancellationToken cancellationToken) => inner.ListAsync(request, cancellationToken);

        public ValueTask<IStagedObject> StageAsync(string name, long? declaredLength, CancellationToken cancellationToken) => Fault(name, () => inner.StageAsync(name, declaredLength, cancellationToken));

        public ValueTask<IReadOnlyList<CommittedObject>> CommitAsync(IReadOnlyList<PendingCommit> commits, CancellationToken cancellationToken) => inner.CommitAsync(commits, cancellationToken);

        public ValueTask<StoredObject?> DeleteAsync(string name, Preconditions preconditions, CancellationToken cancellationToken) => inner.DeleteAsync(name, preconditions, cancellationToken);

        public ValueTask SaveDigestAsync(StoredObject version, byte[] sha256, CancellationToken cancellationToken) => inner.SaveDigestAsync(version, sha256, cancellationToken);

        public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) => inner.IsAvailableAsync(cancellationToken);

        private static T Fault<T>(string name, Func<T> otherwise) =>
            name.StartsWith("down", StringComparison.Ordinal) ? throw Failures.Unavailable("The store did not answer.")
            : name.StartsWith("bug", StringComparison.Ordinal) ? throw new InvalidOperationException($"A fault nobody foresaw, in {AppContext.BaseDirectory}")
            : otherwise();
    }
}
