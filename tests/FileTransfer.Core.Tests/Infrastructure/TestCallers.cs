namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>Callers the tests act as: one that may do everything everywhere, as a key with every scope and no folders.</summary>
internal static class TestCallers
{
    public static readonly Caller Full = Caller.ForKey("test", Scopes.All);
}
