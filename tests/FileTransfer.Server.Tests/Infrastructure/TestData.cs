namespace FileTransfer.Server.Tests.Infrastructure;

public static class TestData
{
    public static byte[] RandomBytes(int size)
    {
        var bytes = new byte[size];
        Random.Shared.NextBytes(bytes);
        return bytes;
    }
}
