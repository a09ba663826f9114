namespace FileTransfer.Core.Tests.Names;

/// <summary>Every request checks its name (a small GET twice): an accepted name costs no allocation.</summary>
public sealed class NameCheckAllocationTests
{
    [Theory]
    [InlineData("report.txt")]
    [InlineData("bench/small-1k.bin")]
    [InlineData("a/b/c/d/e/f/g.tar.gz")]
    [InlineData("photos/été/😀 %zz.png")]
    public void An_Accepted_Name_Is_Checked_Without_Allocating(string name)
    {
        Assert.Null(FileNames.Check(name)); // warm: the first call may initialise statics

        var before = GC.GetAllocatedBytesForCurrentThread();
        var rejection = FileNames.Check(name);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Null(rejection);
        Assert.Equal(0, allocated);
    }
}
