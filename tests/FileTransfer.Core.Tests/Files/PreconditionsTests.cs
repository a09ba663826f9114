namespace FileTransfer.Core.Tests.Files;

/// <summary>RFC 9110 13.1.1 and 13.1.2 as <see cref="Preconditions.Check"/> applies them for every backend.</summary>
public sealed class PreconditionsTests
{
    private static readonly StoredObject Existing = new("f.bin", 10, DateTimeOffset.UnixEpoch, "\"v1\"");

    public static TheoryData<Preconditions, bool, ErrorReason?> Cases => new()
    {
        { Preconditions.None, true, null },
        { Preconditions.None, false, null },
        { new(MustNotExist: true), false, null },
        { new(MustNotExist: true), true, ErrorReason.FileExists },
        { Preconditions.IfMatches("\"v1\""), true, null },
        { Preconditions.IfMatches("\"v2\""), true, ErrorReason.EtagMismatch },
        { Preconditions.IfMatches("\"v1\""), false, ErrorReason.EtagMismatch },
        { Preconditions.IfMatches("*"), true, null },
        { Preconditions.IfMatches("*"), false, ErrorReason.EtagMismatch }, // a missing file matches nothing, not even "*"
        { Preconditions.IfMatches("W/\"v1\""), true, ErrorReason.EtagMismatch }, // If-Match compares strongly
        { Preconditions.IfMatches("v1"), true, ErrorReason.EtagMismatch }, // unquoted is another tag
        { new(IfMatch: ["\"v0\"", "\"v1\""]), true, null },
        { new(IfMatch: ["\"v0\"", "\"v2\""]), true, ErrorReason.EtagMismatch },
        { Preconditions.IfMatches(""), false, null }, // proto3's empty text is no condition
        { Preconditions.IfMatches(null), true, null },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Check_Holds_Or_Refuses_With_The_Reason_The_RFC_Gives(Preconditions preconditions, bool exists, ErrorReason? refusal)
    {
        var existing = exists ? Existing : null;

        var refused = Record.Exception(() => preconditions.Check("f.bin", existing));

        Assert.Equal(refusal, (refused as FileTransferException)?.Reason);
        Assert.Equal(refusal is null, refused is null);
    }

    [Fact]
    public void IsNone_Only_When_Nothing_Is_Asked()
    {
        Assert.True(Preconditions.None.IsNone);
        Assert.True(new Preconditions(IfMatch: []).IsNone);
        Assert.False(new Preconditions(MustNotExist: true).IsNone);
        Assert.False(Preconditions.IfMatches("*").IsNone);
    }
}
