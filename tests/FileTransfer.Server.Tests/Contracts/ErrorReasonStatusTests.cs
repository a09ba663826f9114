using System.Net;
using FileTransfer.Core;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Grpc;
using FileTransfer.Server.Tests.Infrastructure;
using Grpc.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Contracts;

/// <summary>
/// Every reason, as the server answers it on each protocol: the REST status with the reason in the
/// problem, the gRPC status with it in <c>ErrorInfo</c>. The table below is the contract clients map
/// from (the client library's reason table, the CLI's exit codes); a reason added to the core without
/// a row here fails <see cref="Every_Reason_Of_The_Core_Has_A_Row"/>.
/// </summary>
public sealed class ErrorReasonStatusTests(ReasonServerFixture fixture) : IClassFixture<ReasonServerFixture>
{
    private static readonly Dictionary<string, (int Http, StatusCode Grpc)> Table = new()
    {
        ["INVALID_FILE_NAME"] = (400, StatusCode.InvalidArgument),
        ["INVALID_RANGE"] = (400, StatusCode.InvalidArgument),
        ["INVALID_UPLOAD_STREAM"] = (400, StatusCode.InvalidArgument),
        ["INVALID_PAGE_REQUEST"] = (400, StatusCode.InvalidArgument),
        ["FILE_NOT_FOUND"] = (404, StatusCode.NotFound),
        ["OFFSET_PAST_END"] = (416, StatusCode.OutOfRange),
        ["FILE_TOO_LARGE"] = (413, StatusCode.ResourceExhausted),
        ["STORAGE_FULL"] = (507, StatusCode.ResourceExhausted),
        ["DIGEST_MISMATCH"] = (400, StatusCode.DataLoss),
        ["SIZE_MISMATCH"] = (400, StatusCode.DataLoss),
        ["FILE_EXISTS"] = (412, StatusCode.AlreadyExists),
        ["ETAG_MISMATCH"] = (412, StatusCode.FailedPrecondition),
        ["NAME_CONFLICT"] = (409, StatusCode.FailedPrecondition),
        ["UNAUTHENTICATED"] = (401, StatusCode.Unauthenticated),
        ["PERMISSION_DENIED"] = (403, StatusCode.PermissionDenied),
        ["RATE_LIMITED"] = (429, StatusCode.ResourceExhausted),
        ["STORAGE_UNAVAILABLE"] = (503, StatusCode.Unavailable),
        ["UPLOAD_IDLE"] = (408, StatusCode.DeadlineExceeded),
        ["MALFORMED_MESSAGE"] = (400, StatusCode.InvalidArgument),
        ["TOO_MANY_FILES"] = (413, StatusCode.ResourceExhausted),
        ["INVALID_LINK_REQUEST"] = (400, StatusCode.InvalidArgument),
        ["UPLOAD_NOT_FOUND"] = (404, StatusCode.NotFound),
        ["UPLOAD_EXPIRED"] = (410, StatusCode.NotFound),
        ["UPLOAD_OFFSET_MISMATCH"] = (409, StatusCode.FailedPrecondition),
        ["UPLOAD_BUSY"] = (409, StatusCode.Aborted),
        ["UPLOAD_COMPLETED"] = (400, StatusCode.FailedPrecondition),
        ["CHECKSUM_MISMATCH"] = (460, StatusCode.DataLoss),
        ["UNSUPPORTED_PROTOCOL_VERSION"] = (412, StatusCode.InvalidArgument),
        ["DIRECT_DOWNLOAD_UNAVAILABLE"] = (409, StatusCode.FailedPrecondition),

        ["UNSUPPORTED_MEDIA_TYPE"] = (415, StatusCode.InvalidArgument),
        ["ROUTE_NOT_FOUND"] = (404, StatusCode.Unimplemented),
        ["METHOD_NOT_ALLOWED"] = (405, StatusCode.Unimplemented),
        ["INTERNAL_ERROR"] = (500, StatusCode.Unknown),

        // This round's issues 27, 28 and 30, as they announce them.
        ["QUOTA_EXCEEDED"] = (507, StatusCode.ResourceExhausted),
        ["TOO_MANY_UPLOADS"] = (429, StatusCode.ResourceExhausted),
        ["UPLOAD_CANCELLED"] = (409, StatusCode.Aborted),
        ["UPLOAD_REJECTED"] = (403, StatusCode.PermissionDenied),
        ["HOOK_UNAVAILABLE"] = (503, StatusCode.Unavailable),
    };

    public static TheoryData<string> Reasons() => [.. ReasonServer.Reasons];

    [Fact]
    public void Every_Reason_Of_The_Core_Has_A_Row()
    {
        var missing = Enum.GetValues<ErrorReason>().Select(r => r.Code()).Where(code => !Table.ContainsKey(code)).ToList();

        Assert.True(missing.Count == 0, $"No REST and gRPC status decided for {string.Join(", ", missing)}");
    }

    [Theory]
    [MemberData(nameof(Reasons))]
    public async Task Rest_Answers_The_Reason_With_Its_Status_And_Names_It(string reason)
    {
        using var client = KestrelFactory.ClientFor(fixture.Server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);

        using var response = await client.GetAsync("/api/files/" + ReasonServer.NameFor(reason), TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, (HttpStatusCode)Table[reason].Http);
        Assert.Equal(reason, problem.GetProperty("reason").GetString());
    }

    [Theory]
    [MemberData(nameof(Reasons))]
    public async Task Grpc_Answers_The_Reason_With_Its_Status_And_Names_It(string reason)
    {
        var client = new FileService.FileServiceClient(GrpcClients.Channel(fixture.Server.AddressOf(HttpProtocols.Http2)));

        var error = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            using var call = client.DownloadFile(new DownloadFileRequest { FileName = ReasonServer.NameFor(reason) }, cancellationToken: TestTimeout.Token);
            await call.ResponseStream.MoveNext(TestTimeout.Token);
        });

        Assert.Equal(Table[reason].Grpc, error.StatusCode);
        Assert.Equal(reason, GrpcAssert.Reason(error));
    }
}

/// <summary>One <see cref="ReasonServer"/> for every case of a test class.</summary>
public sealed class ReasonServerFixture : IDisposable
{
    public ReasonServer Server { get; } = new();

    public void Dispose() => Server.Dispose();
}
