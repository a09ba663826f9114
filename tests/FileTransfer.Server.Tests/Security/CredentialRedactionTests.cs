using FileTransfer.Server.Security;

namespace FileTransfer.Server.Tests.Security;

/// <summary>The text rule behind log redaction: what is masked, and what ordinary log text keeps.</summary>
public sealed class CredentialRedactionTests
{
    private const string Token = "eyJhIjoicmVhZCIsInAiOiJhLnR4dCIsImUiOjE3OTUzNTY3Mjl9.aIGOXF19Lx6XeIVhS20HsPYh16OF57qGK-RoevNW-HM";

    [Theory]
    [InlineData("GET http://h/api/files/a.txt?sig=abc.def - - -", "GET http://h/api/files/a.txt?sig=[redacted] - - -")]
    [InlineData("/a?x=1&SIG=abc&y=2", "/a?x=1&SIG=[redacted]&y=2")]
    [InlineData("/a?%73%69%67=abc", "/a?%73%69%67=[redacted]")]
    [InlineData("/a?s%49G=abc#f", "/a?s%49G=[redacted]#f")]
    [InlineData("/a;sig=abc", "/a;sig=[redacted]")]
    [InlineData("Invalid request line: 'GET /a?sig=abc\\x00 HTTP/1.1'", "Invalid request line: 'GET /a?sig=[redacted] HTTP/1.1'")]
    [InlineData("QueryString: sig=abc", "QueryString: sig=[redacted]")]
    [InlineData("Authorization: Bearer abc", "Authorization: [redacted]")]
    [InlineData("authorization=Basic Zm9vOmJhcg==", "authorization=[redacted]")]
    [InlineData("{\"Authorization\":\"Bearer abc\"}", "{\"Authorization\":\"[redacted]\"}")]
    [InlineData("X-Api-Key: some-key-0123456789", "X-Api-Key: [redacted]")]
    [InlineData("x-api-key=some-key, other", "x-api-key=[redacted], other")]
    [InlineData("sent Bearer abc.def to the server", "sent Bearer [redacted] to the server")]
    [InlineData("{\"token\":\"" + Token + "\"}", "{\"token\":\"[redacted]\"}")]
    [InlineData("link " + Token + " issued", "link [redacted] issued")]
    [InlineData("Location: http://rgw:7480/b/a.txt?X-Amz-Expires=300&X-Amz-Signature=0a1b2c&response-content-type=text%2Fplain", "Location: http://rgw:7480/b/a.txt?X-Amz-Expires=300&X-Amz-Signature=[redacted]&response-content-type=text%2Fplain")]
    [InlineData("Storage__S3__SecretKey=79077758EA42A44E9018", "Storage__S3__SecretKey=[redacted]")]
    [InlineData("{\"SecretKey\": \"79077758EA42A44E9018\"}", "{\"SecretKey\": \"[redacted]\"}")]
    [InlineData("aws_secret_access_key = 79077758EA42A44E9018", "aws_secret_access_key = [redacted]")]
    public void Credentials_Are_Masked(string text, string expected) =>
        Assert.Equal(expected, CredentialRedaction.Redact(text));

    [Theory]
    [InlineData("Transfer download videos/big.bin over rest (HTTP/2): 3 bytes in 12 ms, success (200)")]
    [InlineData("Authorization was successful.")]
    [InlineData("Authorization failed. These requirements were not met: ScopeRequirement")]
    [InlineData("The signed link is malformed.")]
    [InlineData("WWW-Authenticate: Bearer realm=\"FileTransfer\", error=\"invalid_token\"")]
    [InlineData("/api/files/design.pdf?signature=ok&sigma=1")]
    [InlineData("No API key is configured (Auth:ApiKeys): requests to api/files are refused with 401.")]
    [InlineData("Storage:S3:SecretKey is required when Storage:Backend is S3.")]
    [InlineData("Files are stored in s3://127.0.0.1:7480/files/")]
    public void Ordinary_Log_Text_Is_Left_As_It_Is(string text) =>
        Assert.Same(text, CredentialRedaction.Redact(text));

    [Theory]
    [InlineData("Authorization", true)]
    [InlineData("x-api-key", true)]
    [InlineData("SIG", true)]
    [InlineData("Proxy-Authorization", true)]
    [InlineData("SecretKey", true)]
    [InlineData("X-Amz-Signature", true)]
    [InlineData("Path", false)]
    [InlineData("QueryString", false)]
    public void Values_Named_After_A_Credential_Are_Masked_Whole(string name, bool masked) =>
        Assert.Equal(masked, CredentialRedaction.IsCredentialName(name));

    [Fact]
    public void A_Template_Is_Redacted_Once_Per_Instance_And_For_What_It_Holds()
    {
        // A constant template (a source-generated logger's) comes back as it is, the same instance each time.
        const string constant = "Transfer {Direction} {Name} over {Protocol} ({HttpProtocol}): {Bytes} bytes";
        Assert.Same(constant, CredentialRedaction.RedactTemplate(constant));
        Assert.Same(constant, CredentialRedaction.RedactTemplate(constant));

        // A template built at run time (logger.LogInformation(text)) is redacted like any text, and
        // two instances with the same characters are each redacted, not confused with one another.
        var secret = "k-" + Guid.NewGuid().ToString("N");
        var built = "Retrying with Authorization: Bearer " + secret;
        var first = CredentialRedaction.RedactTemplate(built);
        Assert.Equal("Retrying with Authorization: [redacted]", first);
        Assert.Same(first, CredentialRedaction.RedactTemplate(built));
        Assert.Equal(first, CredentialRedaction.RedactTemplate(new string(built.AsSpan())));
    }
}
