using System.Buffers.Text;
using System.Text.Json;
using FileTransfer.Server.Protocol;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using HttpJsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace FileTransfer.Server.Tests.Contracts;

/// <summary>
/// The JSON the server writes with contexts generated at build time is byte for byte what the
/// reflection-based serializer wrote before: a problem as the app's JSON options wrote it (every
/// type an extension member holds), and signed links, which outlive the server that issued them
/// (a link issued by an earlier build still verifies).
/// </summary>
public sealed class WireJsonTests
{
    private const string SigningKey = "signing-key-for-wire-json-tests-0123456789";

    // {"a":"read","p":"a/\u00E9 b\u003C1\u003E.txt","e":4102444800}, and a write link with "n" and "h", signed with SigningKey.
    private const string ReadToken = "eyJhIjoicmVhZCIsInAiOiJhL1x1MDBFOSBiXHUwMDNDMVx1MDAzRS50eHQiLCJlIjo0MTAyNDQ0ODAwfQ.LYtCUxe-Up4rQIaI7ZZot3HlDxbDzLmNlsNLgfGHNJ8";
    private const string WriteToken = "eyJhIjoid3JpdGUiLCJwIjoidXAveC5iaW4iLCJlIjo0MTAyNDQ0ODAwLCJuIjo1LCJoIjoiMmNmMjRkYmE1ZmIwYTMwZTI2ZTgzYjJhYzViOWUyOWUxYjE2MWU1YzFmYTc0MjVlNzMwNDMzNjI5MzhiOTgyNCJ9.0C0yLNoR_FbK40KK06JQgCnbIIgjQudLZrUh4TYNoK8";

    [Fact]
    public void A_Problem_Is_Written_As_The_Apps_Json_Options_Wrote_It()
    {
        using var server = new FileTransferFactory();
        var appOptions = server.Services.GetRequiredService<IOptions<HttpJsonOptions>>().Value.SerializerOptions;
        var problem = new ProblemDetails { Type = "https://example.com/q", Title = "Quota exceeded", Status = 507, Detail = "No room in 'é <b>'.", Instance = null };
        problem.Extensions["reason"] = "QUOTA_EXCEEDED";
        problem.Extensions["traceId"] = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        problem.Extensions["expected-offset"] = 10L;
        problem.Extensions["provided-offset"] = (long?)5;
        problem.Extensions["path"] = "é/<b>";
        problem.Extensions["maxFiles"] = (long?)null;
        problem.Extensions["errors"] = new Dictionary<string, string[]>(StringComparer.Ordinal) { ["$.path"] = ["The JSON value could not be converted."] };

        var written = JsonSerializer.Serialize(problem, ProblemJson.Response.ProblemDetails);

        Assert.Equal(JsonSerializer.Serialize(problem, problem.GetType(), appOptions), written);
        Assert.Equal(
            """{"type":"https://example.com/q","title":"Quota exceeded","status":507,"detail":"No room in 'é <b>'.","reason":"QUOTA_EXCEEDED","traceId":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","expected-offset":10,"provided-offset":5,"path":"é/<b>","maxFiles":null,"errors":{"$.path":["The JSON value could not be converted."]}}""",
            written);
    }

    [Fact]
    public void A_Signed_Link_Is_Written_As_Before()
    {
        var signer = Signer();
        var read = new SignedLink("read", "a/é b<1>.txt", 4_102_444_800);
        var write = new SignedLink("write", "up/x.bin", 4_102_444_800, MaxBytes: 5, Sha256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");

        Assert.Equal(ReadToken, signer.Sign(read));
        Assert.Equal(WriteToken, signer.Sign(write));
        Assert.Equal(Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(read)), signer.Sign(read).Split('.')[0]);
        Assert.Equal(Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(write)), signer.Sign(write).Split('.')[0]);
    }

    [Theory]
    [InlineData(ReadToken)]
    [InlineData(WriteToken)]
    public void A_Signed_Link_Issued_Before_Reads_The_Same(string token)
    {
        var payload = Base64Url.DecodeFromChars(token.Split('.')[0]);

        Assert.True(Signer().TryValidate(token, out var link, out var error), error);
        Assert.Equal(JsonSerializer.Deserialize<SignedLink>(payload), link);
    }

    private static SignedLinkSigner Signer() => new(Options.Create(new AuthOptions { SigningKey = SigningKey }), TimeProvider.System);
}
