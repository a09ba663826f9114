using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

/// <summary>The code blocks of README.md, read at test time so that a test runs what a reader pastes.</summary>
public static partial class Readme
{
    public static string Text { get; } = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "README.md"));

    /// <summary>
    /// The <paramref name="index"/>th fenced block of <paramref name="language"/> after the first line
    /// that starts with <paramref name="marker"/> (a heading, or a bold lead-in like "**Python**").
    /// </summary>
    public static string Block(string marker, string language, int index = 0)
    {
        var start = Text.IndexOf("\n" + marker, StringComparison.Ordinal);
        Assert.True(start >= 0, $"README.md has no line starting with '{marker}'.");
        var blocks = FencedBlock().Matches(Text[start..]).Where(m => m.Groups["language"].Value == language).ToList();
        Assert.True(blocks.Count > index, $"README.md has no {language} block #{index} after '{marker}'.");
        return blocks[index].Groups["code"].Value;
    }

    [GeneratedRegex(@"^```(?<language>\w*)\n(?<code>.*?)^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex FencedBlock();
}
