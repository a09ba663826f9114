using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>
/// A resumable upload whose last byte meets a name taken meanwhile (another write makes
/// <c>NAME/child</c>): refused as a plain upload is (409 <c>NAME_CONFLICT</c>), and the session keeps
/// every byte, so the client completes it once the way is clear. The same scenario for each backend.
/// </summary>
internal static class SessionCommitConflicts
{
    public static async Task A_Folder_Made_Before_The_Commit_Is_409_And_The_Session_Is_Kept_Async(FileTransferFactory server, string name, int size, Action<string> clearFolder)
    {
        var source = TestData.RandomBytes(size);
        using var client = server.CreateClient();
        var location = await Tus.CreateAsync(client, name, size);
        using (var first = await Tus.AppendAsync(client, location, source, 0, size - 1))
        {
            Assert.Equal(HttpStatusCode.NoContent, first.StatusCode);
        }

        using (var other = await client.PutAsync($"/api/files/{name}/child.txt", new ByteArrayContent([1]), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.Created, other.StatusCode);
        }

        using var last = await Tus.AppendAsync(client, location, source, size - 1, size);

        Assert.Equal("NAME_CONFLICT", (await Problems.AssertAsync(last, HttpStatusCode.Conflict)).GetProperty("reason").GetString());
        using (var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.OK, head.StatusCode);
            Assert.Equal(size, Tus.Offset(head));
        }

        // The way cleared, an append of no bytes at the end completes the upload with every byte.
        using (var removed = await client.DeleteAsync($"/api/files/{name}/child.txt", TestTimeout.Token))
        {
            Assert.Equal(HttpStatusCode.NoContent, removed.StatusCode);
        }

        clearFolder(name);
        using var retried = await Tus.AppendAsync(client, location, source, size, size);
        Assert.Equal(HttpStatusCode.NoContent, retried.StatusCode);
        using var stored = await client.GetAsync($"/api/files/{name}", TestTimeout.Token);
        Assert.Equal(HttpStatusCode.OK, stored.StatusCode);
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await stored.Content.ReadAsByteArrayAsync(TestTimeout.Token)));
    }
}
