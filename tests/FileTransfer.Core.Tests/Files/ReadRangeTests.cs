namespace FileTransfer.Core.Tests.Files;

/// <summary>The gRPC-style range: an offset and a limit where 0 means "to the end".</summary>
public sealed class ReadRangeTests
{
    [Theory]
    [InlineData(0, 0, 100, 0, 100)] // everything
    [InlineData(0, 100, 100, 0, 100)] // a limit of exactly the size
    [InlineData(0, 1, 100, 0, 1)]
    [InlineData(99, 0, 100, 99, 1)] // the last byte
    [InlineData(100, 0, 100, 100, 0)] // offset = size: empty, a client that already has every byte
    [InlineData(100, 5, 100, 100, 0)]
    [InlineData(40, 1000, 100, 40, 60)] // a limit past the end is clipped
    [InlineData(40, long.MaxValue, 100, 40, 60)]
    [InlineData(0, 0, 0, 0, 0)] // an empty file
    [InlineData(0, 7, 0, 0, 0)]
    public void FromOffset_Gives_The_Bytes_Asked_For_Clipped_To_The_End(long offset, long limit, long size, long expectedOffset, long expectedLength)
    {
        Assert.Equal(new ReadRange(expectedOffset, expectedLength), ReadRange.FromOffset(offset, limit, size));
    }

    [Theory]
    [InlineData(101, 0, 100)]
    [InlineData(1, 0, 0)]
    [InlineData(long.MaxValue, 1, 100)]
    public void FromOffset_Past_The_End_Is_OffsetPastEnd(long offset, long limit, long size)
    {
        var refused = Assert.Throws<FileTransferException>(() => ReadRange.FromOffset(offset, limit, size));
        Assert.Equal(ErrorReason.OffsetPastEnd, refused.Reason);
    }

    [Theory]
    [InlineData(-1, 0, 100)]
    [InlineData(0, -1, 100)]
    [InlineData(long.MinValue, 0, 100)]
    [InlineData(-1, -1, 0)]
    public void FromOffset_With_A_Negative_Offset_Or_Limit_Is_InvalidRange(long offset, long limit, long size)
    {
        var refused = Assert.Throws<FileTransferException>(() => ReadRange.FromOffset(offset, limit, size));
        Assert.Equal(ErrorReason.InvalidRange, refused.Reason);
    }
}
