using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Contracts;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Client.Tests;

/// <summary>
/// Every reason the server sends is one kind, the same over REST and gRPC, and the one
/// docs/client-library.md ("Errors: one kind per reason") names: the server answers each reason as it
/// answers a real refusal (<see cref="ReasonServer"/>).
/// </summary>
public sealed class ReasonKindTests(ReasonServerFixture fixture) : IClassFixture<ReasonServerFixture>
{
    private static readonly IReadOnlyDictionary<string, string> Documented = ReasonTable.Read("docs/client-library.md", "Errors: one kind per reason");

    public static TheoryData<string, FileTransferProtocol> Cases() => ReasonServer.OnEach(FileTransferProtocol.Rest, FileTransferProtocol.Grpc);

    [Fact]
    public void Every_Reason_Is_In_The_Documented_Table()
    {
        // The table may already name reasons this server does not send yet (decided ahead of the issue that adds them).
        Assert.Empty(ReasonServer.Reasons.Except(Documented.Keys));
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_Refusal_Is_The_Kind_Its_Reason_Means_On_Either_Protocol(string reason, FileTransferProtocol protocol)
    {
        var address = fixture.Server.AddressOf(protocol == FileTransferProtocol.Grpc ? HttpProtocols.Http2 : HttpProtocols.Http1);
        using var client = Clients.For(address, protocol, o => o.MaxRetries = 0);

        var error = await Assert.ThrowsAsync<FileTransferException>(() =>
            client.DownloadAsync(ReasonServer.NameFor(reason), new MemoryStream(), cancellationToken: TestTimeout.Token));

        Assert.Equal(Enum.Parse<FileTransferErrorKind>(Documented[reason]), error.Kind);
        Assert.Equal(reason, error.Reason);
        Assert.Contains("for the test", error.Detail, StringComparison.Ordinal);
    }
}
