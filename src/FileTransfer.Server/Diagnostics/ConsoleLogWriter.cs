using System.Buffers;
using System.Collections.Concurrent;
using System.Text;
using Microsoft.Extensions.Logging.Console;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// The queue behind <see cref="BatchedConsoleLoggerProvider"/> and the one thread that empties it. A
/// logging thread adds an entry to a lock-free queue and wakes the writer only when it sleeps; the
/// writer then waits <see cref="GatherTime"/> for more, formats everything queued, and writes it to
/// standard output (and error) with one write each. So a busy server makes a few writes a second,
/// whatever its rate of lines, and no request waits on the console. The queue holds at most
/// <see cref="ConsoleLoggerOptions.MaxQueueLength"/> entries; past that, as the framework's console
/// logger does, <see cref="ConsoleLoggerQueueFullMode.Wait"/> holds the logging thread and
/// <see cref="ConsoleLoggerQueueFullMode.DropWrite"/> drops the entry and says so.
/// </summary>
internal sealed class ConsoleLogWriter : IDisposable
{
    /// <summary>How long the writer gathers entries after the first one woke it (lines wait at most this long).</summary>
    public static readonly TimeSpan GatherTime = TimeSpan.FromMilliseconds(20);

    private readonly ConcurrentQueue<ConsoleLogEntry> _queue = new();
    private readonly ConsoleFormatters _formatters;
    private readonly Stream _out;
    private readonly Stream _error;
    private readonly ManualResetEventSlim _wake = new(false, spinCount: 0);
    private readonly object _full = new();
    private readonly Thread _thread;
    private readonly StringWriter _outText = new(System.Globalization.CultureInfo.InvariantCulture);
    private readonly StringWriter _errorText = new(System.Globalization.CultureInfo.InvariantCulture);
    private readonly Encoder _utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false).GetEncoder();
    private int _queued;
    private int _sleeping;
    private int _dropped;
    private volatile bool _stopping;

    public ConsoleLogWriter(ConsoleFormatters formatters, Stream standardOutput, Stream standardError)
    {
        _formatters = formatters;
        _out = standardOutput;
        _error = standardError;
        _thread = new Thread(Run) { IsBackground = true, Name = "Console log writer" };
        _thread.Start();

        // Whatever ends the process (a return from Main, an unhandled exception) writes what is queued first.
        AppDomain.CurrentDomain.ProcessExit += OnExit;
        AppDomain.CurrentDomain.UnhandledException += OnExit;
    }

    public void Enqueue(ConsoleLogEntry entry, ConsoleLoggerOptions options)
    {
        if (Interlocked.Increment(ref _queued) > options.MaxQueueLength && !_stopping)
        {
            if (options.QueueFullMode == ConsoleLoggerQueueFullMode.DropWrite)
            {
                Interlocked.Decrement(ref _queued);
                Interlocked.Increment(ref _dropped);
                return;
            }

            WaitForRoom(options.MaxQueueLength);
        }

        _queue.Enqueue(entry);
        if (Volatile.Read(ref _sleeping) == 1 && Interlocked.Exchange(ref _sleeping, 0) == 1)
        {
            _wake.Set();
        }
    }

    public void Dispose()
    {
        if (_stopping)
        {
            return;
        }

        _stopping = true;
        _wake.Set();
        if (Thread.CurrentThread != _thread)
        {
            _thread.Join(TimeSpan.FromSeconds(5));
        }

        AppDomain.CurrentDomain.ProcessExit -= OnExit;
        AppDomain.CurrentDomain.UnhandledException -= OnExit;
        WriteQueued();
    }

    private void OnExit(object? sender, EventArgs e) => Dispose();

    private void WaitForRoom(int limit)
    {
        lock (_full)
        {
            while (Volatile.Read(ref _queued) > limit && !_stopping)
            {
                Monitor.Wait(_full, TimeSpan.FromMilliseconds(100));
            }
        }
    }

    private void Run()
    {
        while (!_stopping)
        {
            // Tell loggers to wake us, then look once more: an entry queued in between is not missed.
            Volatile.Write(ref _sleeping, 1);
            if (_queue.IsEmpty)
            {
                _wake.Wait();
                _wake.Reset();
                if (!_stopping)
                {
                    Thread.Sleep(GatherTime);
                }
            }
            else
            {
                Volatile.Write(ref _sleeping, 0);
            }

            WriteQueued();
        }
    }

    // Runs on the writer thread, or once it has stopped, on the thread that stops it.
    private void WriteQueued()
    {
        lock (_outText)
        {
            var taken = 0;
            while (_queue.TryDequeue(out var entry))
            {
                taken++;
                try
                {
                    entry.Write(_formatters.Get(entry.FormatterName), entry.ToStandardError ? _errorText : _outText);
                }
                catch (Exception ex) when (ex is not OutOfMemoryException)
                {
                    // One entry that cannot be formatted (its state's ToString threw) does not stop the others.
                    _outText.Write($"A log entry of {entry.Category} could not be written: {ex.GetType().Name}: {ex.Message}{Environment.NewLine}");
                }
            }

            if (Interlocked.Exchange(ref _dropped, 0) is > 0 and var dropped)
            {
                _outText.Write($"{dropped} message(s) dropped because of queue size limit. Increase the queue size or decrease logging verbosity to avoid this. You may change `ConsoleLoggerQueueFullMode` to stop dropping messages.{Environment.NewLine}");
            }

            Flush(_outText, _out);
            Flush(_errorText, _error);
            if (taken > 0 && Interlocked.Add(ref _queued, -taken) < taken)
            {
                lock (_full)
                {
                    Monitor.PulseAll(_full);
                }
            }
        }
    }

    private void Flush(StringWriter text, Stream stream)
    {
        var builder = text.GetStringBuilder();
        if (builder.Length == 0)
        {
            return;
        }

        var bytes = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(builder.Length));
        try
        {
            // One encoder across the chunks: a surrogate pair may straddle two of them.
            var length = 0;
            foreach (var chunk in builder.GetChunks())
            {
                length += _utf8.GetBytes(chunk.Span, bytes.AsSpan(length), flush: false);
            }

            length += _utf8.GetBytes([], bytes.AsSpan(length), flush: true);

            stream.Write(bytes, 0, length);
            stream.Flush();
        }
        catch (IOException)
        {
            // Nobody reads the console any more (a closed pipe): the lines are lost, as the framework's would be.
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(bytes);
            builder.Clear();
        }
    }
}
