using FileTransfer.Cli.Progress;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace FileTransfer.Cli.Tests;

/// <summary>The progress display: binary units everywhere, and a finished line that stops changing.</summary>
public sealed class ProgressTests
{
    [Theory]
    [InlineData(0, "0 B")]
    [InlineData(1023, "1023 B")]
    [InlineData(1024, "1.0 KiB")]
    [InlineData(50_000, "48.8 KiB")]
    [InlineData(3 * 1024 * 1024 + 12_345, "3.0 MiB")]
    [InlineData(5L * 1024 * 1024 * 1024, "5.0 GiB")]
    public void Sizes_Are_Binary_With_KiB_MiB_GiB_Labels(long bytes, string expected) =>
        Assert.Equal(expected, Sizes.Format(bytes));

    [Fact]
    public void Live_Columns_Label_Bytes_And_Rate_In_Binary_Units()
    {
        var time = new ManualTime();
        var (task, line) = NewLine(time, total: 3 * 1024 * 1024);

        time.Advance(TimeSpan.FromSeconds(1));
        line.Set(1024 * 1024);

        Assert.Equal("1.0 MiB/3.0 MiB", Render(new MeterColumns.Bytes(), task));
        Assert.Equal("1.0 MiB/s", Render(new MeterColumns.Rate(), task));
        Assert.Equal("0:00:02", Render(new MeterColumns.Remaining(), task));
    }

    [Fact]
    public void Finished_Line_Keeps_Its_Rate_While_The_Clock_Runs_On()
    {
        var time = new ManualTime();
        var (task, line) = NewLine(time, total: 2 * 1024 * 1024);
        time.Advance(TimeSpan.FromSeconds(2));
        line.Complete(2 * 1024 * 1024);
        var rate = Render(new MeterColumns.Rate(), task);
        var remaining = Render(new MeterColumns.Remaining(), task);

        // Verification and the rename still run after the last byte; the display redraws meanwhile.
        time.Advance(TimeSpan.FromMinutes(5));

        Assert.Equal("1.0 MiB/s", rate);
        Assert.Equal(rate, Render(new MeterColumns.Rate(), task));
        Assert.Equal("in 0:00:02", remaining);
        Assert.Equal(remaining, Render(new MeterColumns.Remaining(), task));
        Assert.Equal("2.0 MiB/2.0 MiB", Render(new MeterColumns.Bytes(), task));
        Assert.True(task.IsFinished);
    }

    [Fact]
    public void Resumed_Bytes_Do_Not_Count_Towards_The_Rate_And_A_Restart_Measures_Anew()
    {
        var time = new ManualTime();
        var meter = new TransferMeter(time, total: 10_000_000, done: 6_000_000);

        time.Advance(TimeSpan.FromSeconds(2));
        meter.Set(8_000_000);
        var resumedRate = meter.Rate;
        meter.Set(0);
        time.Advance(TimeSpan.FromSeconds(1));
        meter.Set(500_000);

        Assert.Equal(1_000_000, resumedRate);
        Assert.Equal(500_000, meter.Rate);
    }

    [Fact]
    public void Plain_Lines_Use_Binary_Units_And_End_With_The_Frozen_Average()
    {
        var time = new ManualTime();
        using var output = new StringWriter();
        var line = new PlainProgress(output, time).Start("big.bin", total: 4 * 1024 * 1024);

        time.Advance(TimeSpan.FromSeconds(1));
        line.Set(1024 * 1024);
        time.Advance(TimeSpan.FromSeconds(1));
        line.Complete(4 * 1024 * 1024);
        line.Complete(4 * 1024 * 1024);

        Assert.Equal(
            "big.bin: 1.0 MiB / 4.0 MiB (25%), 1.0 MiB/s, ETA 00:00:03\n" +
            "big.bin: 4.0 MiB done in 2.0 s (2.0 MiB/s)\n",
            output.ToString().Replace("\r\n", "\n", StringComparison.Ordinal));
        Assert.DoesNotContain(" MB", output.ToString(), StringComparison.Ordinal);
    }

    private static (ProgressTask Task, LiveProgress.Line Line) NewLine(TimeProvider time, long total)
    {
        var task = new ProgressTask(1, "file", total, autoStart: true);
        return (task, new LiveProgress.Line(task, new TransferMeter(time, total, 0)));
    }

    private static string Render(ProgressColumn column, ProgressTask task)
    {
        using var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(output),
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        console.Write(column.Render(RenderOptions.Create(console), task, TimeSpan.Zero));
        return output.ToString().Trim();
    }

    /// <summary>A clock the test moves.</summary>
    private sealed class ManualTime : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => _ticks;

        public void Advance(TimeSpan by) => _ticks += by.Ticks;
    }
}
