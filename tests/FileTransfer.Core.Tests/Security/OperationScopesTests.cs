namespace FileTransfer.Core.Tests.Security;

/// <summary>The one table of which scope each operation needs, for REST and gRPC alike.</summary>
public sealed class OperationScopesTests
{
    private static readonly Dictionary<FileOperation, string[]> Expected = new()
    {
        [FileOperation.List] = ["read"],
        [FileOperation.Read] = ["read"],
        [FileOperation.Write] = ["write"],
        [FileOperation.Delete] = ["delete"],
        [FileOperation.ManageUpload] = ["write", "delete"],
    };

    public static TheoryData<FileOperation> AllOperations => [.. Enum.GetValues<FileOperation>()];

    [Theory]
    [MemberData(nameof(AllOperations))]
    public void Every_Operation_Needs_Its_Scope(FileOperation operation)
    {
        Assert.True(Expected.TryGetValue(operation, out var scopes), $"{operation} has no agreed scope: add it here.");
        Assert.Equal(scopes, OperationScopes.AnyOf(operation));
        Assert.All(OperationScopes.AnyOf(operation), scope => Assert.Contains(scope, Scopes.All));
        Assert.Equal(string.Join('|', scopes), OperationScopes.PolicyFor(operation));
    }

    [Fact]
    public void Every_Scope_Is_Needed_By_Some_Operation()
    {
        Assert.Equal(Scopes.All.Order(StringComparer.Ordinal), Enum.GetValues<FileOperation>().SelectMany(OperationScopes.AnyOf).Distinct().Order(StringComparer.Ordinal));
        Assert.Equal(Expected.Keys.Order(), Enum.GetValues<FileOperation>().Order());
    }

    [Fact]
    public void An_Operation_Outside_The_Table_Is_Refused_Rather_Than_Given_A_Scope()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => OperationScopes.AnyOf((FileOperation)99));
    }
}
