using System.Reflection;
using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Contracts;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// The exit-code table of docs/cli.md is the code's: every reason the server sends exits with the
/// code the table gives it, over REST and over gRPC alike (the same exit codes whatever the
/// protocol), and every exit code the tool has is a row of the table.
/// </summary>
public sealed class ExitCodeTableTests(ReasonServerFixture fixture) : IClassFixture<ReasonServerFixture>, IDisposable
{
    private static readonly IReadOnlyDictionary<string, string> Documented = ReasonTable.Read("docs/cli.md", "Exit codes");
    private readonly TempStorage _local = new();

    public static TheoryData<string, string> Cases() => ReasonServer.OnEach("rest", "grpc");

    [Fact]
    public void Every_Reason_Is_In_The_Table_Once()
    {
        // The table may already name reasons this server does not send yet (decided ahead of the issue that adds them).
        Assert.Empty(ReasonServer.Reasons.Except(Documented.Keys));
    }

    [Fact]
    public void Every_Exit_Code_Of_The_Tool_Is_A_Row_Of_The_Table()
    {
        var rows = File.ReadAllLines(Path.Combine(RepositoryPaths.Root, "docs", "cli.md"))
            .SkipWhile(l => l != "## Exit codes").Where(l => l.StartsWith("| ", StringComparison.Ordinal))
            .Select(l => l.Split('|')[1].Trim()).Where(c => c.All(char.IsAsciiDigit)).Select(int.Parse).ToList();
        var codes = typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static).Where(f => f.IsLiteral).Select(f => (int)f.GetRawConstantValue()!).ToList();

        Assert.Equal(codes.Order(), rows.Order());
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_Refusal_Exits_With_The_Code_Of_Its_Reason_On_Either_Protocol(string reason, string protocol)
    {
        var server = fixture.Server.AddressOf(protocol == "grpc" ? HttpProtocols.Http2 : HttpProtocols.Http1);

        var result = await Tool.RunAsync("download", ReasonServer.NameFor(reason), "-o", _local.RootPath + "/", "--quiet",
            "--server", server.ToString(), "--protocol", protocol);

        Assert.True(int.Parse(Documented[reason]) == result.ExitCode, $"{reason} over {protocol}: {result}");
    }

    public void Dispose() => _local.Dispose();
}
