namespace FileTransfer.Core.Tests.Security;

/// <summary>The one access policy: scopes grant operations, folders the names they apply to, a link its one file.</summary>
public sealed class AccessPolicyTests
{
    private static readonly Caller TeamA = Caller.ForKey("a", [Scopes.Read, Scopes.Write], ["teams/a"]);
    private static readonly DateTimeOffset Later = DateTimeOffset.UtcNow.AddHours(1);

    [Theory]
    [InlineData(FileOperation.Read, "teams/a/x.txt", null)]
    [InlineData(FileOperation.Write, "teams/a/deep/x.txt", null)]
    [InlineData(FileOperation.Read, "teams/ab/x.txt", ErrorReason.PermissionDenied)]
    [InlineData(FileOperation.Read, "teams/b/x.txt", ErrorReason.PermissionDenied)]
    [InlineData(FileOperation.Read, "x.txt", ErrorReason.PermissionDenied)]
    [InlineData(FileOperation.Delete, "teams/a/x.txt", ErrorReason.PermissionDenied)]
    public void A_Key_Limited_To_A_Folder_Reaches_Only_Below_It_With_Its_Scopes(FileOperation operation, string name, ErrorReason? expected)
    {
        Assert.Equal(expected, AccessPolicy.Refusal(TeamA, operation, name)?.Reason);
    }

    [Fact]
    public void A_Refusal_Outside_The_Folder_Names_The_Folders_And_Not_Whether_The_Name_Exists()
    {
        var refused = AccessPolicy.Refusal(TeamA, FileOperation.Write, "teams/b/x.txt")!;

        Assert.Contains("'teams/b/'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'teams/a/'", refused.Message, StringComparison.Ordinal);
        Assert.Equal(refused.Message, AccessPolicy.Refusal(TeamA, FileOperation.Write, "teams/b/y.txt")!.Message.Replace("y.txt", "x.txt", StringComparison.Ordinal));
    }

    [Fact]
    public void A_Key_Without_Folders_Reaches_The_Whole_Tree_As_Before()
    {
        var key = Caller.ForKey("all", Scopes.All);

        Assert.Null(AccessPolicy.Refusal(key, FileOperation.Delete, "anything/at/all.bin"));
        Assert.Equal(["x/"], AccessPolicy.ListingScopes(key, "x/"));
    }

    [Fact]
    public void Anonymous_Callers_Are_Unauthenticated_Unless_Anonymous_Reads_Are_On()
    {
        Assert.Equal(ErrorReason.Unauthenticated, AccessPolicy.Refusal(Caller.Anonymous(mayRead: false), FileOperation.Read, "a")?.Reason);
        Assert.Null(AccessPolicy.Refusal(Caller.Anonymous(mayRead: true), FileOperation.Read, "a"));
        Assert.Equal(ErrorReason.Unauthenticated, AccessPolicy.Refusal(Caller.Anonymous(mayRead: true), FileOperation.Write, "a")?.Reason);
    }

    [Fact]
    public void A_Link_Grants_Its_Access_On_Its_One_File_And_Nothing_Else()
    {
        var read = Caller.ForLink("l1", new LinkGrant(Scopes.Read, "f.txt", Later));

        Assert.Null(AccessPolicy.Refusal(read, FileOperation.Read, "f.txt"));
        Assert.Equal(ErrorReason.PermissionDenied, AccessPolicy.Refusal(read, FileOperation.Read, "g.txt")?.Reason);
        Assert.Equal(ErrorReason.PermissionDenied, AccessPolicy.Refusal(read, FileOperation.Write, "f.txt")?.Reason);
        Assert.Equal(ErrorReason.PermissionDenied, AccessPolicy.Refusal(read, FileOperation.List, "")?.Reason);
        Assert.Throws<FileTransferException>(() => AccessPolicy.ListingScopes(read, ""));
        Assert.Equal(Later, read.ExpiresAt);
    }

    [Fact]
    public void A_Write_Link_Fixes_The_Cap_And_Digest_Of_The_Upload()
    {
        var sha256 = new byte[32];
        var write = Caller.ForLink("l2", new LinkGrant(Scopes.Write, "up.bin", Later, MaxBytes: 10, Sha256: sha256));

        var narrowed = AccessPolicy.Narrow(write, new UploadRequest("up.bin"));

        Assert.Equal(10, narrowed.MaxBytes);
        Assert.Same(sha256, narrowed.ExpectedSha256);
        Assert.Throws<FileTransferException>(() => AccessPolicy.Narrow(write, new UploadRequest("up.bin") { ExpectedSha256 = new byte[] { 1 } }));
    }

    [Fact]
    public void Listing_Above_The_Folders_Lists_Each_Folder_Below_And_Outside_Them_Is_Refused()
    {
        var key = Caller.ForKey("k", [Scopes.Read], ["teams/b/", "teams/a", "teams/a/x/", "users/u/"]);

        Assert.Equal(["teams/a/", "teams/b/", "users/u/"], key.Folders);
        Assert.Equal(["teams/a/", "teams/b/", "users/u/"], AccessPolicy.ListingScopes(key, ""));
        Assert.Equal(["teams/a/", "teams/b/"], AccessPolicy.ListingScopes(key, "teams/"));
        Assert.Equal(["teams/a/sub/"], AccessPolicy.ListingScopes(key, "teams/a/sub/"));
        Assert.Equal(ErrorReason.PermissionDenied, Assert.Throws<FileTransferException>(() => AccessPolicy.ListingScopes(key, "other/")).Reason);
    }

    [Fact]
    public void A_Session_Is_Continued_Only_By_Its_Owner_And_Queried_Or_Cancelled_By_A_Delete_Key_Over_Its_Folder()
    {
        var owner = Caller.ForKey("owner", [Scopes.Write], ["teams/a/"]);
        var session = new UploadSession("id", "teams/a/f.bin", owner.Id, Later, Later);
        var admin = Caller.ForKey("admin", Scopes.All);
        var otherTeamAdmin = Caller.ForKey("b-admin", Scopes.All, ["teams/b/"]);

        AccessPolicy.DemandSession(owner, session, SessionUse.Write);
        AccessPolicy.DemandSession(admin, session, SessionUse.Query);
        AccessPolicy.DemandSession(admin, session, SessionUse.Cancel);
        Assert.Equal(ErrorReason.PermissionDenied, Assert.Throws<FileTransferException>(() => AccessPolicy.DemandSession(admin, session, SessionUse.Write)).Reason);
        Assert.Throws<FileTransferException>(() => AccessPolicy.DemandSession(otherTeamAdmin, session, SessionUse.Cancel));
    }

    [Theory]
    [InlineData("teams/a", "teams/a/")]
    [InlineData("/teams/a/", "teams/a/")]
    [InlineData("", "")]
    [InlineData("/", "")]
    [InlineData("teams/../b", null)]
    [InlineData("teams/.ft-meta", null)]
    public void Folder_Grants_Are_Folders_A_Client_Could_Name(string path, string? expected)
    {
        Assert.Equal(expected, Grants.Normalize(path));
    }
}
