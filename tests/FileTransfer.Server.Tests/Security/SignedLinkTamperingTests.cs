using System.Net;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Signed links that were altered, expired, malformed or signed elsewhere are 401.</summary>
public sealed class SignedLinkTamperingTests(SecurityFactory factory) : IClassFixture<SecurityFactory>
{
    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(-3)]
    [InlineData(-1)]
    public async Task An_Altered_Link_Is_401(int position)
    {
        factory.Storage.Write("f.txt", [1]);
        var token = (await IssueAsync(new { path = "f.txt", access = "read" })).Token;
        var index = position >= 0 ? position : token.Length + position;
        var altered = token[..index] + (token[index] == 'A' ? 'B' : 'A') + token[(index + 1)..];

        using var response = await factory.ClientWith(null).GetAsync($"/api/files/f.txt?sig={altered}", TestTimeout.Token);

        // The last character of the MAC also carries padding bits: changing those makes it
        // non-canonical base64, refused as malformed before the MAC is compared.
        var problem = await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Matches("signature does not match|malformed", problem.GetProperty("detail").GetString());
        Assert.Contains("invalid_token", response.Headers.WwwAuthenticate.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("a.b")]
    [InlineData(".")]
    public async Task A_Malformed_Link_Is_401(string token)
    {
        using var response = await factory.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Fact]
    public async Task An_Expired_Link_Is_401()
    {
        factory.Storage.Write("f.txt", [1]);
        var signer = factory.Services.GetRequiredService<SignedLinkSigner>();
        var token = signer.Sign(new SignedLink("read", "f.txt", DateTimeOffset.UtcNow.AddSeconds(-1).ToUnixTimeSeconds()));

        using var response = await factory.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}", TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
        Assert.Contains("expired", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_Link_Holds_Across_Servers_Sharing_The_Signing_Key_And_Nowhere_Else()
    {
        factory.Storage.Write("f.txt", [1]);
        var token = (await IssueAsync(new { path = "f.txt", access = "read" })).Token;
        using var sameKey = new SecurityFactory();
        sameKey.Storage.Write("f.txt", [1]);
        using var otherKey = new SecurityFactory();
        otherKey.With("Auth:SigningKey", "another-signing-key-0123456789abcdef").Storage.Write("f.txt", [1]);
        using var generatedKey = new SecurityFactory();
        generatedKey.Without("Auth:SigningKey").Storage.Write("f.txt", [1]);

        Assert.Equal(HttpStatusCode.OK, (await sameKey.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}", TestTimeout.Token)).StatusCode);
        await Problems.AssertAsync(await otherKey.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}", TestTimeout.Token), HttpStatusCode.Unauthorized);
        await Problems.AssertAsync(await generatedKey.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}", TestTimeout.Token), HttpStatusCode.Unauthorized);
    }

    [Fact]
    public async Task Two_Links_In_One_Request_Are_401()
    {
        factory.Storage.Write("f.txt", [1]);
        var token = (await IssueAsync(new { path = "f.txt", access = "read" })).Token;

        using var response = await factory.ClientWith(null).GetAsync($"/api/files/f.txt?sig={token}&sig={token}", TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.Unauthorized);
    }

    [Fact]
    public void Random_Tokens_Are_Refused_Without_Throwing()
    {
        var signer = factory.Services.GetRequiredService<SignedLinkSigner>();
        var valid = signer.Sign(new SignedLink("read", "f.txt", DateTimeOffset.UtcNow.AddHours(1).ToUnixTimeSeconds()));
        var random = new Random(9530);
        const string Alphabet = "ABCxyz019-_.=+/%\0 é";

        for (var i = 0; i < 20_000; i++)
        {
            var token = i % 2 == 0
                ? new string([.. Enumerable.Range(0, random.Next(0, 120)).Select(_ => Alphabet[random.Next(Alphabet.Length)])])
                : valid.Remove(random.Next(valid.Length), 1).Insert(random.Next(valid.Length - 1), Alphabet[random.Next(Alphabet.Length)].ToString());
            if (token == valid)
            {
                continue;
            }

            Assert.False(signer.TryValidate(token, out _, out var error), token);
            Assert.NotEmpty(error);
        }
    }

    private async Task<LinkResponse> IssueAsync(object request)
    {
        using var client = factory.ClientWith(FileTransferFactory.TestKey);
        return await SignedLinkTests.IssueAsync(client, request);
    }
}
