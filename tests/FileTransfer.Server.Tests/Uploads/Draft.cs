using System.Globalization;
using System.Net.Http.Headers;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>The IETF resumable-upload draft's requests spelled out by hand (interop version 6 unless told).</summary>
internal static class Draft
{
    /// <summary>POST api/files/{name} creating an upload with <paramref name="bytes"/> as its first content.</summary>
    public static HttpRequestMessage Create(string name, byte[] bytes, bool complete, int version = 6)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/files/" + name) { Content = new ByteArrayContent(bytes) };
        request.Headers.Add("Upload-Draft-Interop-Version", version.ToString(CultureInfo.InvariantCulture));
        request.Headers.Add("Upload-Complete", complete ? "?1" : "?0");
        return request;
    }

    /// <summary>PATCH application/partial-upload at <paramref name="offset"/>.</summary>
    public static HttpRequestMessage Append(Uri location, long offset, byte[] bytes, bool complete, int version = 6)
    {
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/partial-upload");
        var request = new HttpRequestMessage(HttpMethod.Patch, location) { Content = content };
        request.Headers.Add("Upload-Draft-Interop-Version", version.ToString(CultureInfo.InvariantCulture));
        request.Headers.Add("Upload-Offset", offset.ToString(CultureInfo.InvariantCulture));
        request.Headers.Add("Upload-Complete", complete ? "?1" : "?0");
        return request;
    }

    public static HttpRequestMessage Head(Uri location, int version = 6) => WithVersion(new HttpRequestMessage(HttpMethod.Head, location), version);

    public static HttpRequestMessage Delete(Uri location, int version = 6) => WithVersion(new HttpRequestMessage(HttpMethod.Delete, location), version);

    private static HttpRequestMessage WithVersion(HttpRequestMessage request, int version)
    {
        request.Headers.Add("Upload-Draft-Interop-Version", version.ToString(CultureInfo.InvariantCulture));
        return request;
    }
}
