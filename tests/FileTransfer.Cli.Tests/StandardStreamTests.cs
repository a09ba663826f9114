using System.Security.Cryptography;
using FileTransfer.Cli.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Cli.Tests;

/// <summary>
/// <c>-</c> as in curl and aws s3 cp: <c>upload - NAME</c> reads standard input, <c>download NAME -o -</c>
/// writes standard output; streamed both ways (bytes cross the network before the input ends, and
/// reach the output before the download ends), with nothing but the file's bytes on standard output.
/// Through a relay that counts the bytes crossing it.
/// </summary>
public sealed class StandardStreamTests : IDisposable
{
    private const int Half = 4 * 1024 * 1024;
    private readonly KestrelFactory _server = new();

    public static TheoryData<string> Protocols() => ["rest", "grpc"];

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Upload_Dash_Streams_Standard_Input_As_It_Is_Read(string protocol)
    {
        await using var relay = Relay(protocol);
        var source = RandomNumberGenerator.GetBytes(2 * Half);
        // The second half is given only once most of the first has crossed the relay: a tool that
        // read all of its input before sending would wait for it in vain.
        var input = new GatedStream(source, Half, () => relay.UpstreamBytes >= Half / 2);

        var result = await Tool.RunAsync(new ToolRun { StandardInput = input }, "upload", "-", "pipes/in.bin", "--server", relay.Address.ToString(), "--protocol", protocol);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("pipes/in.bin"), TestTimeout.Token));
        Assert.Contains("Uploaded standard input as pipes/in.bin", result.Error, StringComparison.Ordinal);
        Assert.Contains("compared after the upload", result.Error, StringComparison.Ordinal);
        Assert.Empty(result.Output);
    }

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task Download_Dash_Writes_Only_The_Files_Bytes_To_Standard_Output_As_They_Arrive(string protocol)
    {
        var source = _server.Storage.WriteRandom("pipes/out.bin", 8 * Half);
        await using var relay = Relay(protocol);
        var output = new FirstWriteStream(() => relay.DownstreamBytes);

        var result = await Tool.RunAsync(new ToolRun { StandardOutput = output }, "download", "pipes/out.bin", "-o", "-", "--server", relay.Address.ToString(), "--protocol", protocol);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(output.ToArray()));
        Assert.Empty(result.Output);
        Assert.Contains("Downloaded pipes/out.bin to standard output", result.Error, StringComparison.Ordinal);
        Assert.True(output.RelayedAtFirstWrite < source.Length / 2, $"{output.RelayedAtFirstWrite} of {source.Length} bytes had crossed before the first write");
    }

    [Theory]
    [InlineData("upload", "-")]
    [InlineData("upload", "-", "")]
    public async Task Upload_Dash_Needs_A_Name(params string[] args)
    {
        var result = await Tool.RunAsync([.. args, "--server", _server.AddressOf(HttpProtocols.Http1).ToString()]);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("upload - reads standard input, which has no file name", result.Error, StringComparison.Ordinal);
    }

    // A relay that never cuts: it only counts.
    private CuttingProxy Relay(string protocol) =>
        new(_server.AddressOf(protocol == "grpc" ? HttpProtocols.Http2 : HttpProtocols.Http1), cutAfterBytes: long.MaxValue, cutDownstream: true, connectionsToCut: 0);

    public void Dispose() => _server.Dispose();

    /// <summary>A pipe whose bytes after <c>gate</c> are given only once <c>open</c> is true (at most 30 s, then it fails).</summary>
    private sealed class GatedStream(byte[] bytes, int gate, Func<bool> open) : MemoryStream(bytes, writable: false)
    {
        public override bool CanSeek => false;

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (Position == gate)
            {
                var waited = System.Diagnostics.Stopwatch.StartNew();
                while (!open())
                {
                    if (waited.Elapsed > TimeSpan.FromSeconds(30))
                    {
                        throw new IOException($"The first {gate} bytes of the input never crossed the network: the input was not streamed.");
                    }

                    await Task.Delay(10, cancellationToken);
                }
            }

            var count = (int)Math.Min(buffer.Length, (Position < gate ? gate : Length) - Position);
            return Read(buffer.Span[..count]);
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Standard output that remembers how many bytes had crossed the relay when the first byte was written.</summary>
    private sealed class FirstWriteStream(Func<long> relayed) : MemoryStream
    {
        public long RelayedAtFirstWrite { get; private set; } = -1;

        public override void Write(byte[] buffer, int offset, int count)
        {
            Record(count);
            base.Write(buffer, offset, count);
        }

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            Record(buffer.Length);
            base.Write(buffer);
        }

        private void Record(int count)
        {
            if (RelayedAtFirstWrite < 0 && count > 0)
            {
                RelayedAtFirstWrite = relayed();
            }
        }
    }
}
