namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>The two builds the server ships as, for a theory over both: the Release dll (false) and the Native AOT executable (true, <see cref="NativeServer"/>).</summary>
public static class ShippedBuilds
{
    public static TheoryData<bool> Both() => new() { false, true };
}
