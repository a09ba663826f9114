using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Http;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// The one rule for "presented no credential" that both authentication (no result) and anonymous
/// reads (granted only then) use: anything the scheme reads counts, valid or not.
/// </summary>
public sealed class PresentedCredentialTests
{
    [Theory]
    [InlineData(null, null, "", false)]
    [InlineData(null, null, "?other=1", false)]
    [InlineData("Basic dXNlcjpwYXNz", null, "", false)]
    [InlineData("Bearer some-key", null, "", true)]
    [InlineData("bEARER some-key", null, "", true)]
    [InlineData(null, "some-key", "", true)]
    [InlineData(null, "", "", true)]
    [InlineData(null, null, "?sig=anything", true)]
    [InlineData(null, null, "?sig=", true)]
    [InlineData("Basic dXNlcjpwYXNz", null, "?a=1&sig=x", true)]
    public void Anything_The_Scheme_Reads_Counts_As_Presented(string? authorization, string? apiKey, string query, bool expected)
    {
        var context = new DefaultHttpContext();
        context.Request.QueryString = new QueryString(query);
        if (authorization is not null)
        {
            context.Request.Headers.Authorization = authorization;
        }

        if (apiKey is not null)
        {
            context.Request.Headers[FileTransferAuthenticationHandler.ApiKeyHeader] = apiKey;
        }

        Assert.Equal(expected, FileTransferAuthenticationHandler.PresentsCredential(context.Request));
    }
}
