using System.Text;
using FileTransfer.Server.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;

namespace FileTransfer.Server.Tests.Diagnostics;

/// <summary>
/// The server's console logger writes what the framework's console formatter writes, but many lines in
/// one write, off the logging thread, and nothing queued is lost when it stops.
/// </summary>
public sealed class BatchedConsoleLoggerTests
{
    [Fact]
    public void Lines_Are_The_Formatters_Own_Text_Written_Together()
    {
        var formatters = Formatters();
        var output = new RecordingStream();
        using (var writer = new ConsoleLogWriter(formatters, output, Stream.Null))
        {
            for (var i = 0; i < 200; i++)
            {
                writer.Enqueue(Entry(i), new ConsoleLoggerOptions());
            }
        }

        var expected = new StringWriter();
        for (var i = 0; i < 200; i++)
        {
            Entry(i).Write(formatters.Get(ConsoleFormatterNames.Simple), expected);
        }

        Assert.Equal(expected.ToString(), Encoding.UTF8.GetString(output.ToArray()));
        Assert.InRange(output.Writes, 1, 10);
        Assert.Contains("info: Test.Category[100]", expected.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Lines_At_The_Error_Threshold_Go_To_Standard_Error()
    {
        var output = new RecordingStream();
        var error = new RecordingStream();
        using (var writer = new ConsoleLogWriter(Formatters(), output, error))
        {
            writer.Enqueue(Entry(1), new ConsoleLoggerOptions());
            writer.Enqueue(Entry(2, toStandardError: true), new ConsoleLoggerOptions());
        }

        Assert.Contains("line 1", Encoding.UTF8.GetString(output.ToArray()), StringComparison.Ordinal);
        Assert.DoesNotContain("line 2", Encoding.UTF8.GetString(output.ToArray()), StringComparison.Ordinal);
        Assert.Contains("line 2", Encoding.UTF8.GetString(error.ToArray()), StringComparison.Ordinal);
    }

    [Fact]
    public void A_Full_Queue_In_Drop_Mode_Says_How_Many_Lines_It_Dropped()
    {
        var output = new RecordingStream { Blocked = true };
        var options = new ConsoleLoggerOptions { MaxQueueLength = 5, QueueFullMode = ConsoleLoggerQueueFullMode.DropWrite };
        using (var writer = new ConsoleLogWriter(Formatters(), output, Stream.Null))
        {
            for (var i = 0; i < 50; i++)
            {
                writer.Enqueue(Entry(i), options);
            }

            output.Blocked = false;
        }

        var text = Encoding.UTF8.GetString(output.ToArray());
        Assert.Contains("message(s) dropped because of queue size limit", text, StringComparison.Ordinal);
        Assert.Contains("line 0", text, StringComparison.Ordinal);
    }

    [Fact]
    public void A_State_That_Reads_Live_Objects_Is_Formatted_At_The_Call_And_A_Frozen_One_Later()
    {
        var services = new ServiceCollection().AddLogging(logging => logging.AddConsole()).BuildServiceProvider();
        var output = new RecordingStream();
        var live = new LiveState { Text = "at the call" };
        using (var provider = new BatchedConsoleLoggerProvider(
            services.GetRequiredService<Microsoft.Extensions.Options.IOptionsMonitor<ConsoleLoggerOptions>>(), Formatters(), output, Stream.Null))
        {
            var logger = provider.CreateLogger("Test.Category");
            logger.Log(LogLevel.Information, new EventId(1), live, null, static (s, _) => s.ToString());
            logger.Log(LogLevel.Information, new EventId(2), new FrozenState("frozen"), null, static (s, _) => s.Text);
            live.Text = "recycled";
        }

        var text = Encoding.UTF8.GetString(output.ToArray());
        Assert.Contains("at the call", text, StringComparison.Ordinal);
        Assert.DoesNotContain("recycled", text, StringComparison.Ordinal);
        Assert.Contains("frozen", text, StringComparison.Ordinal);
        Assert.True(FrozenLogState.Is(new FrozenState("x")));
        Assert.False(FrozenLogState.Is(live));
    }

    [Fact]
    public void The_Server_Registers_It_In_Place_Of_The_Framework_Console_Logger()
    {
        using var factory = new Infrastructure.FileTransferFactory();
        var providers = factory.Services.GetServices<ILoggerProvider>().ToList();

        Assert.Contains(providers, p => p is BatchedConsoleLoggerProvider);
        Assert.DoesNotContain(providers, p => p is ConsoleLoggerProvider);
    }

    private static ConsoleLogEntry<string> Entry(int i, bool toStandardError = false) => new(
        ConsoleFormatterNames.Simple,
        new LogEntry<string>(LogLevel.Information, "Test.Category", new EventId(100), $"line {i} ünïcödé", null, static (s, _) => s),
        scopes: null,
        toStandardError);

    private static ConsoleFormatters Formatters()
    {
        var services = new ServiceCollection().AddLogging(logging => logging.AddConsole()).BuildServiceProvider();
        return ActivatorUtilities.CreateInstance<ConsoleFormatters>(services);
    }

    /// <summary>A state like ASP.NET Core's request-finished line: its text is read from a live object.</summary>
    private sealed class LiveState : IReadOnlyList<KeyValuePair<string, object?>>
    {
        public string Text { get; set; } = "";

        public int Count => 1;

        public KeyValuePair<string, object?> this[int index] => new("Text", Text);

        public IEnumerator<KeyValuePair<string, object?>> GetEnumerator()
        {
            yield return this[0];
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();

        public override string ToString() => Text;
    }

    /// <summary>A state like [LoggerMessage]'s: a value type holding its values.</summary>
    private readonly record struct FrozenState(string Text) : IReadOnlyList<KeyValuePair<string, object?>>
    {
        public int Count => 1;

        public KeyValuePair<string, object?> this[int index] => new("Text", Text);

        public IEnumerator<KeyValuePair<string, object?>> GetEnumerator()
        {
            yield return this[0];
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }

    /// <summary>Keeps what was written and counts the writes; while blocked, a write waits.</summary>
    private sealed class RecordingStream : MemoryStream
    {
        public int Writes { get; private set; }

        public volatile bool Blocked;

        public override void Write(byte[] buffer, int offset, int count)
        {
            while (Blocked)
            {
                Thread.Sleep(5);
            }

            Writes++;
            base.Write(buffer, offset, count);
        }
    }
}
