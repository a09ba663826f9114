using System.Globalization;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>tus 1.0.0 requests spelled out by hand, so that the tests read as the wire does.</summary>
internal static class Tus
{
    public const string Endpoint = "/api/uploads";

    /// <summary>POST api/uploads: <c>Upload-Length</c> (or deferred when null) and <c>Upload-Metadata</c> from <paramref name="metadata"/>.</summary>
    public static HttpRequestMessage Create(long? length, params (string Key, string Value)[] metadata)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Endpoint);
        request.Headers.Add("Tus-Resumable", "1.0.0");
        if (length is { } declared)
        {
            request.Headers.Add("Upload-Length", declared.ToString(CultureInfo.InvariantCulture));
        }
        else
        {
            request.Headers.Add("Upload-Defer-Length", "1");
        }

        request.Headers.Add("Upload-Metadata", Metadata(metadata));
        return request;
    }

    /// <summary>PATCH with <paramref name="bytes"/> at <paramref name="offset"/>.</summary>
    public static HttpRequestMessage Patch(Uri location, long offset, byte[] bytes, string? checksum = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Patch, location) { Content = Bytes(bytes) };
        request.Headers.Add("Tus-Resumable", "1.0.0");
        request.Headers.Add("Upload-Offset", offset.ToString(CultureInfo.InvariantCulture));
        if (checksum is not null)
        {
            request.Headers.Add("Upload-Checksum", checksum);
        }

        return request;
    }

    public static HttpRequestMessage Head(Uri location) => WithVersion(new HttpRequestMessage(HttpMethod.Head, location));

    public static HttpRequestMessage Delete(Uri location) => WithVersion(new HttpRequestMessage(HttpMethod.Delete, location));

    public static HttpRequestMessage WithVersion(HttpRequestMessage request)
    {
        request.Headers.Add("Tus-Resumable", "1.0.0");
        return request;
    }

    public static ByteArrayContent Bytes(byte[] bytes)
    {
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/offset+octet-stream");
        return content;
    }

    public static string Sha256Checksum(ReadOnlySpan<byte> bytes) => "sha256 " + Convert.ToBase64String(SHA256.HashData(bytes));

    public static string Metadata(params (string Key, string Value)[] pairs) =>
        string.Join(',', pairs.Select(p => $"{p.Key} {Convert.ToBase64String(Encoding.UTF8.GetBytes(p.Value))}"));

    public static long Offset(HttpResponseMessage response) =>
        long.Parse(response.Headers.GetValues("Upload-Offset").Single(), CultureInfo.InvariantCulture);

    /// <summary>Creates an upload of <paramref name="length"/> bytes named <paramref name="name"/> and returns its absolute address.</summary>
    public static async Task<Uri> CreateAsync(HttpClient client, string name, long? length)
    {
        var slash = name.LastIndexOf('/');
        (string, string)[] metadata = slash < 0 ? [("filename", name)] : [("filename", name[(slash + 1)..]), ("folder", name[..slash])];
        using var response = await client.SendAsync(Create(length, metadata), TestTimeout.Token);
        Assert.Equal(System.Net.HttpStatusCode.Created, response.StatusCode);
        return new Uri(client.BaseAddress!, response.Headers.Location!);
    }

    /// <summary>Sends <paramref name="source"/>[from..to] as one PATCH and returns the answer.</summary>
    public static Task<HttpResponseMessage> AppendAsync(HttpClient client, Uri location, byte[] source, int from, int to) =>
        client.SendAsync(Patch(location, from, source[from..to]), TestTimeout.Token);
}
