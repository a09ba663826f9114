using System.Globalization;
using System.Runtime.CompilerServices;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace FileTransfer.Cli.Progress;

/// <summary>Progress columns that read a line's <see cref="TransferMeter"/>: binary units, a rate that freezes on completion.</summary>
internal static class MeterColumns
{
    // Spectre's per-task state holds only value types: the meter of each task is kept beside it.
    private static readonly ConditionalWeakTable<ProgressTask, TransferMeter> Meters = [];

    public static void Attach(ProgressTask task, TransferMeter meter) => Meters.AddOrUpdate(task, meter);

    private static TransferMeter? MeterOf(ProgressTask task) => Meters.TryGetValue(task, out var meter) ? meter : null;

    /// <summary><c>1.5 MiB/3.0 MiB</c>.</summary>
    internal sealed class Bytes : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) =>
            MeterOf(task) is not { } meter ? Text.Empty
            : new Text(meter.Total is { } total ? $"{Sizes.Format(meter.Done)}/{Sizes.Format(total)}" : Sizes.Format(meter.Done));
    }

    /// <summary><c>12.3 MiB/s</c>: the average of the phase, frozen once it completes.</summary>
    internal sealed class Rate : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) =>
            MeterOf(task) is not { } meter ? Text.Empty : new Text($"{Sizes.Format((long)meter.Rate)}/s");
    }

    /// <summary>Time left (<c>0:01:05</c>), or how long the phase took once it completed.</summary>
    internal sealed class Remaining : ProgressColumn
    {
        public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime) => MeterOf(task) switch
        {
            null => Text.Empty,
            { IsComplete: true } meter => new Text(string.Create(CultureInfo.InvariantCulture, $"in {meter.Elapsed:h\\:mm\\:ss}")),
            { Remaining: { } left } => new Text(string.Create(CultureInfo.InvariantCulture, $"{left:h\\:mm\\:ss}")),
            _ => new Text("-:--:--"),
        };
    }
}
