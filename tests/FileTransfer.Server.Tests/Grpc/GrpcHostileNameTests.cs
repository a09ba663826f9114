using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Security;
using Grpc.Core;

namespace FileTransfer.Server.Tests.Grpc;

/// <summary>
/// The hostile-name table over gRPC, on every RPC that takes a name, against the sandbox whose
/// canaries lie outside the root. A gRPC name is not a URL: it arrives as the raw text, with no
/// percent-decoding and no dot-segment removal, so every ".." and every escape reaches the
/// resolver, which must refuse it. The table's harmless names are sent as they are stored.
/// </summary>
public sealed class GrpcHostileNameTests(HostileServer server) : IClassFixture<HostileServer>
{
    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Download_And_Info_Refuse_Or_Find_Nothing_And_Read_Nothing_Outside(string target, Outcome outcome, string? storedAs)
    {
        var (name, accepted) = NameOf(target, outcome, storedAs);

        var download = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.DownloadAsync(server.Grpc, name, TestTimeout.Token));
        var info = await Assert.ThrowsAsync<RpcException>(async () => await server.Grpc.GetFileInfoAsync(new GetFileInfoRequest { FileName = name }, cancellationToken: TestTimeout.Token));

        foreach (var error in new[] { download, info })
        {
            Assert.Equal(accepted ? StatusCode.NotFound : StatusCode.InvalidArgument, error.StatusCode);
            AssertNothingLeaked(error, $"read {name}");
        }
    }

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Upload_Refuses_Or_Stores_Inside_The_Root_And_Writes_Nothing_Outside(string target, Outcome outcome, string? storedAs)
    {
        var (name, accepted) = NameOf(target, outcome, storedAs);
        var payload = "pwned"u8.ToArray();

        if (accepted)
        {
            await GrpcTransfers.UploadAsync(server.Grpc, name, payload, 1024, TestTimeout.Token);
            Assert.Equal(payload, server.Sandbox.ReadInside(name));
            await server.Grpc.DeleteFileAsync(new DeleteFileRequest { FileName = name }, cancellationToken: TestTimeout.Token);
        }
        else
        {
            var error = await Assert.ThrowsAsync<RpcException>(() => GrpcTransfers.UploadAsync(server.Grpc, name, payload, 1024, TestTimeout.Token));
            Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
            Assert.Equal("INVALID_FILE_NAME", GrpcAssert.Reason(error));
            AssertNothingLeaked(error, $"upload {name}");
        }

        server.Sandbox.AssertOutsideUntouched($"upload {name}");
    }

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Delete_Refuses_Or_Finds_Nothing_And_Removes_Nothing_Outside(string target, Outcome outcome, string? storedAs)
    {
        var (name, accepted) = NameOf(target, outcome, storedAs);

        var error = await Assert.ThrowsAsync<RpcException>(async () => await server.Grpc.DeleteFileAsync(new DeleteFileRequest { FileName = name }, cancellationToken: TestTimeout.Token));

        Assert.Equal(accepted ? StatusCode.NotFound : StatusCode.InvalidArgument, error.StatusCode);
        AssertNothingLeaked(error, $"delete {name}");
    }

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task A_Hostile_List_Prefix_Lists_Only_Files_Inside_The_Root(string target, Outcome outcome, string? storedAs)
    {
        var (name, _) = NameOf(target, outcome, storedAs);

        var listed = await server.Grpc.ListFilesAsync(new ListFilesRequest { Prefix = name }, cancellationToken: TestTimeout.Token);

        // The sandbox root holds one file, reachable under its own name and through one inside link.
        Assert.All(listed.Files, f => Assert.Contains(f.FileName, new[] { "inside/file.txt", "inside-alias/file.txt" }));
        server.Sandbox.AssertOutsideUntouched($"list {name}");
    }

    [Fact]
    public async Task An_Empty_Prefix_Lists_The_Files_Inside_Once_And_Nothing_A_Link_Leads_To_Outside()
    {
        var listed = await server.Grpc.ListFilesAsync(new ListFilesRequest(), cancellationToken: TestTimeout.Token);

        // inside-alias -> inside is a folder link: its file is listed once, under its real name.
        Assert.Equal(["inside/file.txt"], listed.Files.Select(f => f.FileName));
    }

    private (string Name, bool Accepted) NameOf(string target, Outcome outcome, string? storedAs)
    {
        if (outcome == Outcome.Absent)
        {
            return (storedAs!, true);
        }

        // A raw space is only refused in an HTTP request line; in a name it is an ordinary character.
        var raw = server.Raw(target);
        return (raw, raw == "a b");
    }

    private void AssertNothingLeaked(RpcException error, string call)
    {
        Assert.DoesNotContain(server.Sandbox.Canary, error.Status.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain(server.Sandbox.Path, error.Status.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error.Status.Detail, StringComparison.Ordinal);
        server.Sandbox.AssertOutsideUntouched(call);
    }
}
