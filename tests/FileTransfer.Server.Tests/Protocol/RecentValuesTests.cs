using FileTransfer.Core;
using FileTransfer.Server.Protocol;

namespace FileTransfer.Server.Tests.Protocol;

public sealed class RecentValuesTests
{
    [Fact]
    public void A_Key_Seen_Before_Is_Answered_Without_Computing_Again()
    {
        var computed = 0;
        var recent = new RecentValues<string, string>(8, key => { computed++; return key.ToUpperInvariant(); });

        Assert.Equal("A", recent["a"]);
        Assert.Equal("A", recent[new string('a', 1)]);
        Assert.Equal(1, computed);
    }

    [Fact]
    public void Past_Its_Capacity_It_Forgets_And_Still_Answers_Every_Key_Right()
    {
        var computed = 0;
        var recent = new RecentValues<int, int>(4, key => { computed++; return key * 10; });

        for (var key = 0; key < 100; key++)
        {
            Assert.Equal(key * 10, recent[key]);
        }

        // Only the last few are kept: the last key is not computed again, the first is.
        Assert.Equal(100, computed);
        Assert.Equal(990, recent[99]);
        Assert.Equal(100, computed);
        Assert.Equal(0, recent[0]);
        Assert.Equal(101, computed);
    }

    [Theory]
    [InlineData("docs/report.txt", "text/plain", "inline; filename=report.txt; filename*=UTF-8''report.txt")]
    [InlineData("docs/page.html", "text/html", "attachment; filename=page.html; filename*=UTF-8''page.html")]
    [InlineData("a/b/é 😀.svg", "image/svg+xml; charset=utf-8", "attachment; filename=\"_ __.svg\"; filename*=UTF-8''%C3%A9%20%F0%9F%98%80.svg")]
    public void The_Disposition_Depends_On_Both_Name_And_Type_Whatever_Was_Asked_Before(string name, string contentType, string expected)
    {
        // The same name with another type (and the reverse) must not be answered from the memo.
        _ = DownloadDisposition.For(Version(name, "text/html"));
        _ = DownloadDisposition.For(Version("other/" + Path.GetFileName(name), contentType));

        Assert.Equal(expected, DownloadDisposition.For(Version(name, contentType)));
    }

    private static FileVersion Version(string name, string contentType) =>
        new(new StoredObject(name, 1, DateTimeOffset.UnixEpoch, "\"1\""), contentType);
}
