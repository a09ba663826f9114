using System.Net;
using System.Net.Http.Headers;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Contracts;

/// <summary>
/// The same failure gets the same stable reason on both protocols: REST in the problem's
/// <c>reason</c> member, gRPC in <c>google.rpc.ErrorInfo.reason</c>, each with its own status.
/// </summary>
public sealed class ErrorReasonParityTests : IDisposable
{
    private const string ReadOnlyKey = "read-only-key-for-reason-parity-0123";
    private readonly KestrelFactory _server = (KestrelFactory)new KestrelFactory()
        .With("Storage:MaxFileSizeBytes", "1000")
        .With("Auth:ApiKeys:1:Key", ReadOnlyKey)
        .With("Auth:ApiKeys:1:Scopes:0", "read");

    public static TheoryData<string> Failures() =>
    [
        "FILE_NOT_FOUND", "INVALID_FILE_NAME", "FILE_EXISTS", "ETAG_MISMATCH", "DIGEST_MISMATCH",
        "FILE_TOO_LARGE", "INVALID_PAGE_REQUEST", "OFFSET_PAST_END", "UNAUTHENTICATED", "PERMISSION_DENIED",
    ];

    [Theory]
    [MemberData(nameof(Failures))]
    public async Task Rest_And_Grpc_Name_The_Same_Failure_With_The_Same_Reason(string reason)
    {
        _server.Storage.WriteRandom("here.bin", 100);
        var (status, problem) = await RestAsync(reason);
        var error = await Assert.ThrowsAsync<RpcException>(() => GrpcAsync(reason));

        Assert.True((int)status >= 400, $"REST answered {status}");
        Assert.Equal(reason, problem);
        Assert.Equal(reason, GrpcAssert.Reason(error));
        Assert.Equal(["here.bin"], _server.Storage.VisibleFiles());
    }

    private async Task<(HttpStatusCode Status, string? Reason)> RestAsync(string reason)
    {
        using var client = KestrelFactory.ClientFor(_server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var request = reason switch
        {
            "FILE_NOT_FOUND" => new HttpRequestMessage(HttpMethod.Get, "/api/files/missing.bin"),
            "INVALID_FILE_NAME" => new HttpRequestMessage(HttpMethod.Put, "/api/files/.ft-reserved") { Content = new ByteArrayContent([1]) },
            "FILE_EXISTS" => new HttpRequestMessage(HttpMethod.Put, "/api/files/here.bin") { Content = new ByteArrayContent([1]), Headers = { IfNoneMatch = { EntityTagHeaderValue.Any } } },
            "ETAG_MISMATCH" => new HttpRequestMessage(HttpMethod.Delete, "/api/files/here.bin") { Headers = { IfMatch = { new EntityTagHeaderValue("\"stale\"") } } },
            "DIGEST_MISMATCH" => new HttpRequestMessage(HttpMethod.Put, "/api/files/new.bin") { Content = DigestedWrongly() },
            "FILE_TOO_LARGE" => new HttpRequestMessage(HttpMethod.Put, "/api/files/big.bin") { Content = new ByteArrayContent(new byte[1001]) },
            "INVALID_PAGE_REQUEST" => new HttpRequestMessage(HttpMethod.Get, "/api/files?pageToken=garbage"),
            "OFFSET_PAST_END" => new HttpRequestMessage(HttpMethod.Get, "/api/files/here.bin") { Headers = { Range = new RangeHeaderValue(500, null) } },
            "UNAUTHENTICATED" => new HttpRequestMessage(HttpMethod.Get, "/api/files") { Headers = { Authorization = new AuthenticationHeaderValue("Bearer", "not-a-key-0123456789") } },
            _ => new HttpRequestMessage(HttpMethod.Delete, "/api/files/here.bin") { Headers = { Authorization = new AuthenticationHeaderValue("Bearer", ReadOnlyKey) } },
        };
        using var response = await client.SendAsync(request, TestTimeout.Token);
        var problem = await Problems.AssertAsync(response, response.StatusCode);
        return (response.StatusCode, problem.TryGetProperty("reason", out var value) ? value.GetString() : null);
    }

    private async Task GrpcAsync(string reason)
    {
        var client = GrpcClients.For(_server, reason switch
        {
            "UNAUTHENTICATED" => "not-a-key-0123456789",
            "PERMISSION_DENIED" => ReadOnlyKey,
            _ => FileTransferFactory.TestKey,
        });
        switch (reason)
        {
            case "FILE_NOT_FOUND":
                await client.GetFileInfoAsync(new GetFileInfoRequest { FileName = "missing.bin" }, cancellationToken: TestTimeout.Token);
                break;
            case "INVALID_FILE_NAME":
                await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = ".ft-reserved" }, [1], 1024, TestTimeout.Token);
                break;
            case "FILE_EXISTS":
                await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "here.bin" }, [1], 1024, TestTimeout.Token);
                break;
            case "ETAG_MISMATCH":
                await client.DeleteFileAsync(new DeleteFileRequest { FileName = "here.bin", IfMatch = "\"stale\"" }, cancellationToken: TestTimeout.Token);
                break;
            case "DIGEST_MISMATCH":
                await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "new.bin", Sha256 = ByteString.CopyFrom(new byte[32]) }, [1, 2, 3], 1024, TestTimeout.Token);
                break;
            case "FILE_TOO_LARGE":
                await GrpcTransfers.UploadAsync(client, new FileMetadata { FileName = "big.bin" }, new byte[1001], 1024, TestTimeout.Token);
                break;
            case "INVALID_PAGE_REQUEST":
                await client.ListFilesAsync(new ListFilesRequest { PageToken = "garbage" }, cancellationToken: TestTimeout.Token);
                break;
            case "OFFSET_PAST_END":
                using (var call = client.DownloadFile(new DownloadFileRequest { FileName = "here.bin", Offset = 500 }, cancellationToken: TestTimeout.Token))
                {
                    await call.ResponseStream.MoveNext(TestTimeout.Token);
                }

                break;
            case "UNAUTHENTICATED":
                await client.ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);
                break;
            default:
                await client.DeleteFileAsync(new DeleteFileRequest { FileName = "here.bin" }, cancellationToken: TestTimeout.Token);
                break;
        }
    }

    private static ByteArrayContent DigestedWrongly()
    {
        var content = new ByteArrayContent([1, 2, 3]);
        content.Headers.Add("Content-Digest", $"sha-256=:{Convert.ToBase64String(new byte[32])}:");
        return content;
    }

    public void Dispose() => _server.Dispose();
}
