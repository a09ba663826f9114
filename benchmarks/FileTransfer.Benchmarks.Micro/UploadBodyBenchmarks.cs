using System.IO.Pipelines;
using System.Text;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace FileTransfer.Benchmarks.Micro;

/// <summary>
/// The published upload comparison (read the request body into a string, into a byte[], or
/// stream it to disk), in process: the body is a <see cref="PipeReader"/> over a stream that
/// produces the bytes without holding them, as Kestrel hands a request body to an endpoint.
/// Time and allocated bytes per upload; "stream" is what our upload endpoints do. The body stream
/// completes synchronously and the disk writes are synchronous, so that every allocation happens on
/// the benchmark's thread: BenchmarkDotNet's memory diagnoser would miss those of thread-pool
/// continuations.
/// </summary>
[MemoryDiagnoser]
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 1, iterationCount: 5)]
public class UploadBodyBenchmarks
{
    private string _target = "";

    /// <summary>Body size in MB (10^6 bytes), as in the published table.</summary>
    [Params(1, 10, 100, 1000)]
    public int SizeMb { get; set; }

    private long Bytes => SizeMb * 1_000_000L;

    [GlobalSetup]
    public void Setup() => _target = Path.Combine(Path.GetTempPath(), $"ft-micro-{Environment.ProcessId}.bin");

    [GlobalCleanup]
    public void Cleanup() => File.Delete(_target);

    [Benchmark(Description = "read into string")]
    public async Task<int> ReadIntoString()
    {
        var body = PipeReader.Create(new GeneratedStream(Bytes));
        using var reader = new StreamReader(body.AsStream(), Encoding.UTF8);
        var text = await reader.ReadToEndAsync();
        File.WriteAllText(_target, text);
        return text.Length;
    }

    [Benchmark(Description = "read into byte[]")]
    public async Task<int> ReadIntoByteArray()
    {
        var body = PipeReader.Create(new GeneratedStream(Bytes));
        using var memory = new MemoryStream();
        await body.CopyToAsync(memory);
        var bytes = memory.ToArray();
        File.WriteAllBytes(_target, bytes);
        return bytes.Length;
    }

    [Benchmark(Baseline = true, Description = "stream to disk")]
    public async Task<long> StreamToDisk()
    {
        var body = PipeReader.Create(new GeneratedStream(Bytes));
        using var file = new FileStream(_target, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0);
        long total = 0;
        while (true)
        {
            var read = await body.ReadAsync();
            foreach (var segment in read.Buffer)
            {
                file.Write(segment.Span);
                total += segment.Length;
            }

            body.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
            {
                break;
            }
        }

        await body.CompleteAsync();
        return total;
    }

    /// <summary>A read-only stream of <c>length</c> ASCII bytes that holds nothing but a counter.</summary>
    private sealed class GeneratedStream(long length) : Stream
    {
        private long _position;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => length;

        public override long Position { get => _position; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            var count = (int)Math.Min(buffer.Length, length - _position);
            buffer[..count].Fill((byte)'a');
            _position += count;
            return count;
        }

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            ValueTask.FromResult(Read(buffer.Span));

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            Task.FromResult(Read(buffer.AsSpan(offset, count)));

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
