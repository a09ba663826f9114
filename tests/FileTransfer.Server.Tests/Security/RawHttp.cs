using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security;

/// <summary>A response read off the wire: status, headers (last value wins), de-chunked body.</summary>
public sealed record RawResponse(int Status, IReadOnlyDictionary<string, string> Headers, byte[] Body)
{
    public string Text => Encoding.UTF8.GetString(Body);

    public string? Header(string name) => Headers.TryGetValue(name, out var value) ? value : null;

    /// <summary>Asserts an RFC 9457 problem with <paramref name="status"/> and no stack trace.</summary>
    public JsonElement AssertProblem(int status)
    {
        Assert.Equal(status, Status);
        Assert.StartsWith("application/problem+json", Header("Content-Type"), StringComparison.Ordinal);
        using var document = JsonDocument.Parse(Body);
        Assert.Equal(status, document.RootElement.GetProperty("status").GetInt32());
        Assert.DoesNotContain("   at ", Text, StringComparison.Ordinal);
        return document.RootElement.Clone();
    }
}

/// <summary>
/// HTTP/1.1 over a bare socket, sending the request target byte for byte: no client library
/// normalises "..", re-encodes "%2e" or refuses a NUL, so the server sees exactly what an attacker sends.
/// </summary>
public static class RawHttp
{
    public static async Task<RawResponse> SendAsync(Uri server, string method, byte[] target, IEnumerable<(string Name, string Value)> headers, byte[]? body = null)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(server.Host, server.Port, TestTimeout.Token);
        await using var stream = tcp.GetStream();

        var head = new StringBuilder();
        foreach (var (name, value) in headers.Append(("Host", server.Authority)).Append(("Connection", "close")).Append(("Content-Length", $"{body?.Length ?? 0}")))
        {
            head.Append(name).Append(": ").Append(value).Append("\r\n");
        }

        // One write: the server may answer a bad request line and close at once, and bytes sent
        // after its close would be answered with a reset (a broken pipe here, now and then).
        byte[] request = [.. Encoding.ASCII.GetBytes(method + " "), .. target, .. Encoding.ASCII.GetBytes(" HTTP/1.1\r\n" + head + "\r\n"), .. body ?? []];
        try
        {
            await stream.WriteAsync(request, TestTimeout.Token);
        }
        catch (IOException)
        {
            // Answered and closed before the body was all sent (a body the server refused up
            // front): what it answered is still to be read.
        }

        using var received = new MemoryStream();
        await stream.CopyToAsync(received, TestTimeout.Token);
        return Parse(received.ToArray());
    }

    private static RawResponse Parse(byte[] response)
    {
        var end = response.AsSpan().IndexOf("\r\n\r\n"u8);
        Assert.True(end > 0, "no complete response head: " + Encoding.ASCII.GetString(response));
        var lines = Encoding.ASCII.GetString(response, 0, end).Split("\r\n");
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in lines.Skip(1))
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            headers[line[..colon]] = line[(colon + 1)..].Trim();
        }

        var body = response[(end + 4)..];
        if (headers.TryGetValue("Transfer-Encoding", out var coding) && coding.Equals("chunked", StringComparison.OrdinalIgnoreCase))
        {
            body = Dechunk(body);
        }

        return new RawResponse(int.Parse(lines[0].Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture), headers, body);
    }

    // RFC 9112 7.1: hex size, CRLF, data, CRLF, ... until a zero-size chunk.
    private static byte[] Dechunk(byte[] chunked)
    {
        using var body = new MemoryStream();
        var position = 0;
        while (true)
        {
            var lineEnd = chunked.AsSpan(position).IndexOf("\r\n"u8) + position;
            var size = Convert.ToInt32(Encoding.ASCII.GetString(chunked, position, lineEnd - position).Split(';')[0], 16);
            if (size == 0)
            {
                return body.ToArray();
            }

            body.Write(chunked, lineEnd + 2, size);
            position = lineEnd + 2 + size + 2;
        }
    }
}
