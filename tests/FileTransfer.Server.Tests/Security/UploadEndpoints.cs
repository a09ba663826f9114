using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Whether the upload (PUT) and delete endpoints of api/files/{path} exist yet. They are built in
/// parallel with these tests, which assert the contract once they answer and 405 until then.
/// </summary>
public static class UploadEndpoints
{
    /// <summary>True unless <paramref name="method"/> on a fresh, valid name is 405; leaves nothing behind.</summary>
    public static async Task<bool> IsServedAsync(HttpClient client, string method, Action<string> removeStored)
    {
        var name = $"probe-{Guid.NewGuid():N}.txt";
        using var request = new HttpRequestMessage(new HttpMethod(method), $"/api/files/{name}");
        if (method != "DELETE")
        {
            request.Content = new ByteArrayContent("probe"u8.ToArray());
        }

        using var response = await client.SendAsync(request, TestTimeout.Token);
        removeStored(name);
        return response.StatusCode != HttpStatusCode.MethodNotAllowed;
    }
}

