namespace FileTransfer.Client.Tests.Infrastructure;

/// <summary>A stream read once from start to end, like a pipe: it cannot seek, so its length is unknown.</summary>
public sealed class ForwardOnlyStream(byte[] bytes) : MemoryStream(bytes)
{
    public override bool CanSeek => false;
}
