using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Every hostile name on download, upload and delete, over real Kestrel: the precise status, a
/// problem+json body without stack trace, server path or canary bytes, and nothing outside the
/// root read or written.
/// </summary>
public sealed class HostileNameTests(HostileServer server) : IClassFixture<HostileServer>
{
    private static readonly byte[] Payload = "pwned"u8.ToArray();

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Download_Answers_Precisely_And_Reads_Nothing_Outside_The_Root(string target, Outcome outcome, string? storedAs)
    {
        _ = storedAs;

        var response = await server.SendAsync("GET", target);

        AssertStatus(response, outcome switch
        {
            Outcome.Refused => 400,
            Outcome.NoRoute or Outcome.Absent => 404,
            Outcome.BadRequestLine => 400,
            _ => 414,
        }, outcome);
        AssertNothingLeaked(response, $"GET {target}");
    }

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Upload_Answers_Precisely_And_Writes_Nothing_Outside_The_Root(string target, Outcome outcome, string? storedAs)
    {
        var response = await server.SendAsync("PUT", target, Payload);

        if (outcome == Outcome.Absent)
        {
            // The contract: 201 for a new file, stored under the name as decoded, inside the root.
            Assert.Equal(201, response.Status);
            Assert.Equal(Payload, server.Sandbox.ReadInside(storedAs!));
            File.Delete(Path.Combine(server.Sandbox.RootPath, storedAs!));
        }
        else
        {
            AssertStatus(response, Expected(outcome), outcome);
        }

        AssertNothingLeaked(response, $"PUT {target}");
    }

    [Theory]
    [MemberData(nameof(HostileNames.All), MemberType = typeof(HostileNames))]
    public async Task Delete_Answers_Precisely_And_Removes_Nothing_Outside_The_Root(string target, Outcome outcome, string? storedAs)
    {
        _ = storedAs;
        var response = await server.SendAsync("DELETE", target);

        AssertStatus(response, outcome == Outcome.Absent ? 404 : Expected(outcome), outcome);
        AssertNothingLeaked(response, $"DELETE {target}");
    }

    [Theory]
    [InlineData("\uFF0E\uFF0E/secret.txt")]
    [InlineData("\uFF0E\uFF0E\uFF0Fsecret.txt")]
    [InlineData("\u2025/secret.txt")]
    [InlineData("a\uFF3Cb")]
    public async Task No_Signed_Link_Is_Issued_For_A_Name_A_Normalising_Client_Would_Read_As_Traversal(string name)
    {
        var body = JsonSerializer.SerializeToUtf8Bytes(new { path = name, access = "read" });

        var response = await RawHttp.SendAsync(server.Address, "POST", "/api/links"u8.ToArray(), [("Authorization", $"Bearer {FileTransferFactory.TestKey}"), ("Content-Type", "application/json")], body);

        var problem = response.AssertProblem(400);
        Assert.Contains("NFKC", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        AssertNothingLeaked(response, $"POST /api/links {name}");
    }

    [Fact]
    public async Task Links_That_Stay_Inside_The_Root_Are_Followed()
    {
        var response = await server.SendAsync("GET", "inside-alias/file.txt");

        Assert.Equal(200, response.Status);
        Assert.Equal("inside", response.Text);
    }

    [Fact]
    public void The_Table_Holds_At_Least_60_Hostile_Names() =>
        Assert.True(HostileNames.All.Count(row => (Outcome)row[1] != Outcome.Absent) >= 60);

    private static int Expected(Outcome outcome) => outcome switch
    {
        Outcome.NoRoute => 404,
        Outcome.UriTooLong => 414,
        _ => 400,
    };

    private static void AssertStatus(RawResponse response, int status, Outcome outcome)
    {
        if (outcome is Outcome.BadRequestLine or Outcome.UriTooLong)
        {
            // Kestrel answers these itself, before any application code, with an empty body.
            Assert.Equal(status, response.Status);
            Assert.Empty(response.Body);
            return;
        }

        response.AssertProblem(status);
    }

    private void AssertNothingLeaked(RawResponse response, string request)
    {
        Assert.DoesNotContain(server.Sandbox.Canary, response.Text, StringComparison.Ordinal);
        Assert.DoesNotContain(server.Sandbox.Path, response.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("root:x:0:0", response.Text, StringComparison.Ordinal);
        server.Sandbox.AssertOutsideUntouched(request);
    }
}
