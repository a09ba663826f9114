namespace FileTransfer.Core;

/// <summary>A run of bytes of one version: where it starts and how many bytes it has.</summary>
public readonly record struct ReadRange(long Offset, long Length)
{
    /// <summary>
    /// The range a gRPC-style request asks for: from <paramref name="offset"/>, <paramref name="limit"/>
    /// bytes, where 0 means "to the end". An offset equal to the size is an empty range (a client
    /// that already has every byte); one past it is refused.
    /// </summary>
    public static ReadRange FromOffset(long offset, long limit, long size)
    {
        if (offset < 0 || limit < 0)
        {
            throw Failures.InvalidRange("offset and limit must not be negative.");
        }

        if (offset > size)
        {
            throw Failures.OffsetPastEnd(offset, size);
        }

        var available = size - offset;
        return new ReadRange(offset, limit == 0 ? available : Math.Min(limit, available));
    }
}
