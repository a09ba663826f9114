using System.Collections.Concurrent;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

/// <summary>The repository's markdown files, read at test time so that a test runs what a reader pastes.</summary>
public static partial class Docs
{
    private static readonly ConcurrentDictionary<string, string> Texts = new(StringComparer.Ordinal);

    /// <summary>The text of a markdown file, by its path from the repository root (e.g. <c>docs/grpc-api.md</c>).</summary>
    public static string Text(string file) =>
        Texts.GetOrAdd(file, f => File.ReadAllText(Path.Combine(RepositoryPaths.Root, f)));

    /// <summary>
    /// The <paramref name="index"/>th fenced block of <paramref name="language"/> in <paramref name="file"/>
    /// after the first line that starts with <paramref name="marker"/> (a heading, or a bold lead-in like "**Python**").
    /// </summary>
    public static string Block(string file, string marker, string language, int index = 0)
    {
        var text = Text(file);
        var start = text.IndexOf("\n" + marker, StringComparison.Ordinal);
        Assert.True(start >= 0, $"{file} has no line starting with '{marker}'.");
        var blocks = FencedBlock().Matches(text[start..]).Where(m => m.Groups["language"].Value == language).ToList();
        Assert.True(blocks.Count > index, $"{file} has no {language} block #{index} after '{marker}'.");
        return blocks[index].Groups["code"].Value;
    }

    [GeneratedRegex(@"^```(?<language>\w*)\n(?<code>.*?)^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex FencedBlock();
}
