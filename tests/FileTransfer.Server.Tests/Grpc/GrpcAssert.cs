using Google.Rpc;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

public static class GrpcAssert
{
    /// <summary>The google.rpc.ErrorInfo reason the server attached, which clients switch on.</summary>
    public static string? Reason(RpcException error)
    {
        var status = error.GetRpcStatus();
        Assert.NotNull(status);
        Assert.Equal((int)error.StatusCode, status.Code);
        var info = status.GetDetail<ErrorInfo>();
        Assert.Equal("filetransfer.v1", info?.Domain);
        return info?.Reason;
    }

    /// <summary>A refusal a client can read: a short message, no server path, no exception text, no stack trace.</summary>
    public static void IsClean(RpcException error, string storageRoot)
    {
        var detail = error.Status.Detail;
        Assert.False(string.IsNullOrWhiteSpace(detail));
        Assert.DoesNotContain(storageRoot, detail, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", detail, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", detail, StringComparison.Ordinal);
    }
}
