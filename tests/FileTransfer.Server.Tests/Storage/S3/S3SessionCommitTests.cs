using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// A resumable upload on the real Ceph RGW whose name became a folder before its commit: 409
/// <c>NAME_CONFLICT</c> as on the local disk, and the session (its multipart upload and tail) kept
/// for the commit once the way is clear. 9 MiB: two parts of the multipart upload and a tail.
/// </summary>
public sealed class S3SessionCommitTests(S3TestServer fixture) : IClassFixture<S3TestServer>
{
    [Theory]
    [InlineData(100_000)]
    [InlineData((9 * 1024 * 1024) + 12_345)]
    public Task A_Folder_Made_Before_The_Commit_Is_409_Name_Conflict_And_The_Session_Keeps_Every_Byte(int size) =>
        SessionCommitConflicts.A_Folder_Made_Before_The_Commit_Is_409_And_The_Session_Is_Kept_Async(
            fixture.Server, $"conflict-{size}/file.bin", size, _ => { });
}
