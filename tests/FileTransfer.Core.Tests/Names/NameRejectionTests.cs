using System.Reflection;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Names;

/// <summary>Every way a name is refused, refused by every operation that takes a name before the backend hears of it.</summary>
public sealed class NameRejectionTests
{
    /// <summary>
    /// Refusals that only a backend can make (where a link leads), not the spelling of the name, and
    /// the Windows-only rule on other systems: these have no name the core itself refuses.
    /// </summary>
    private static readonly HashSet<NameRejection> DecidedElsewhere =
    [
        NameRejection.OutsideRoot,
        NameRejection.UnresolvableLink,
        .. OperatingSystem.IsWindows() ? Array.Empty<NameRejection>() : [NameRejection.WindowsName],
    ];

    /// <summary>Names that break each rule, by the rule's field name.</summary>
    private static readonly (string Rejection, string? Name)[] Samples =
    [
        (nameof(NameRejection.Empty), ""),
        (nameof(NameRejection.Empty), null),
        (nameof(NameRejection.TooLong), string.Join('/', Enumerable.Repeat(new string('a', 200), 6))),
        (nameof(NameRejection.TooLong), string.Join('/', Enumerable.Repeat(new string('\u00E9', 100), 6))),
        (nameof(NameRejection.SegmentTooLong), new string('a', 256)),
        (nameof(NameRejection.SegmentTooLong), "dir/" + new string('\u00E9', 128)),
        (nameof(NameRejection.Absolute), "/etc/passwd"),
        (nameof(NameRejection.Absolute), "C:/x"),
        (nameof(NameRejection.Absolute), "c:x"),
        (nameof(NameRejection.Backslash), "a\\b"),
        (nameof(NameRejection.Backslash), "..\\secret"),
        (nameof(NameRejection.ControlCharacter), "a\0b"),
        (nameof(NameRejection.ControlCharacter), "line\nbreak"),
        (nameof(NameRejection.ControlCharacter), "invoice\u202Efdp.exe"),
        (nameof(NameRejection.ControlCharacter), "a\u2028b"),
        (nameof(NameRejection.ControlCharacter), "a\u0085b"),
        (nameof(NameRejection.EmptySegment), "a//b"),
        (nameof(NameRejection.EmptySegment), "a/"),
        (nameof(NameRejection.DotSegment), "a/./b"),
        (nameof(NameRejection.DotSegment), "../a"),
        (nameof(NameRejection.DotSegment), "a/.."),
        (nameof(NameRejection.CompatibilityTraversal), "\uFF0E\uFF0E/secret.txt"),
        (nameof(NameRejection.CompatibilityTraversal), "a\uFF0Fb"),
        (nameof(NameRejection.CompatibilityTraversal), "\u2105.txt"),
        (nameof(NameRejection.PercentEncoded), "%2e%2e/x"),
        (nameof(NameRejection.PercentEncoded), "a%2Fb"),
        (nameof(NameRejection.Reserved), ".ft-upload-1.tmp"),
        (nameof(NameRejection.Reserved), "sub/.FT-x"),
        (nameof(NameRejection.InvalidUnicode), "a\uD800b"),
        (nameof(NameRejection.InvalidUnicode), "\uDE00"),
        (nameof(NameRejection.WindowsName), "CON.txt"),
        (nameof(NameRejection.WindowsName), "x/a:b"),
    ];

    public static TheoryData<string, string?> RefusedNames()
    {
        var data = new TheoryData<string, string?>();
        foreach (var (rejection, name) in Samples.Where(s => !DecidedElsewhere.Contains(Rejection(s.Rejection))))
        {
            data.Add(rejection, name);
        }

        return data;
    }

    [Fact]
    public void Every_Rejection_The_Core_Makes_Has_A_Sample_Name()
    {
        var all = typeof(NameRejection).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.FieldType == typeof(NameRejection))
            .Select(f => f.Name);

        Assert.Equal(
            all.Where(n => !DecidedElsewhere.Contains(Rejection(n))).Order(StringComparer.Ordinal),
            Samples.Select(s => s.Rejection).Where(n => !DecidedElsewhere.Contains(Rejection(n))).Distinct().Order(StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(RefusedNames), DisableDiscoveryEnumeration = true)]
    public void FileNames_Refuses_The_Name_For_Exactly_Its_Rule(string rejection, string? name)
    {
        Assert.Same(Rejection(rejection), FileNames.Check(name));
        Assert.False(FileNames.IsValid(name));
        var refused = Assert.Throws<FileTransferException>(() => FileNames.Validate(name));
        Assert.Equal(ErrorReason.InvalidFileName, refused.Reason);
        Assert.Equal(Rejection(rejection).Reason, refused.Message);
    }

    [Theory]
    [MemberData(nameof(RefusedNames), DisableDiscoveryEnumeration = true)]
    public async Task Every_Operation_Refuses_The_Name_With_InvalidFileName_Before_The_Backend_Hears_Of_It(string rejection, string? name)
    {
        Assert.Same(Rejection(rejection), FileNames.Check(name));
        var backend = new InMemoryBackend();
        var files = Operations.Over(backend);
        var token = TestTimeout.Token;

        await AssertInvalidAsync(async () => await files.StatAsync(TestCallers.Full, name!, token));
        await AssertInvalidAsync(async () => await files.OpenAsync(TestCallers.Full, name!, Preconditions.None, token));
        await AssertInvalidAsync(async () => await files.DescribeAsync(TestCallers.Full, name!, token));
        await AssertInvalidAsync(async () => await files.BeginUploadAsync(TestCallers.Full, new UploadRequest(name!) { DeclaredLength = 1, Preconditions = new(MustNotExist: true) }, token));
        await AssertInvalidAsync(async () => await files.DeleteAsync(TestCallers.Full, TransferProtocol.Rest, name!, Preconditions.None, token));

        Assert.Equal(0, backend.Calls);
    }

    [Theory]
    [InlineData("a.txt")]
    [InlineData(".hidden")]
    [InlineData("a..b")]
    [InlineData("...")]
    [InlineData("100%.txt")]
    [InlineData("\u00E9/\u65E5\u672C/\U0001F600.bin")]
    [InlineData("\uFF0E\uFF0E\uFF0E")]
    public void Accepts_Names_That_Break_No_Rule(string name)
    {
        Assert.Null(FileNames.Check(name));
        Assert.Same(name, FileNames.Validate(name));
    }

    [Fact]
    public void Accepts_Names_At_The_Length_Limits()
    {
        var longest = string.Join('/', [.. Enumerable.Repeat(new string('b', 204), 4), new string('b', 204)]);
        Assert.Equal(FileNames.MaxNameBytes, System.Text.Encoding.UTF8.GetByteCount(longest));

        Assert.True(FileNames.IsValid(new string('a', FileNames.MaxSegmentBytes)));
        Assert.True(FileNames.IsValid(longest));
        Assert.False(FileNames.IsValid(longest + "b"));
    }

    private static NameRejection Rejection(string field) =>
        (NameRejection)typeof(NameRejection).GetField(field, BindingFlags.Public | BindingFlags.Static)!.GetValue(null)!;

    private static async Task AssertInvalidAsync(Func<Task> action)
    {
        var refused = await Assert.ThrowsAsync<FileTransferException>(action);
        Assert.Equal(ErrorReason.InvalidFileName, refused.Reason);
    }
}
