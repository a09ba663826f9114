using System.Text.RegularExpressions;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// A table in the docs that maps server reasons to what a client makes of them (a kind, an exit code):
/// the first cell of each row, and the <c>`UPPER_SNAKE`</c> reasons named in its "Server reasons" column.
/// Tests compare the code with it, so the docs cannot drift from the code.
/// </summary>
public static partial class ReasonTable
{
    /// <summary>Reason → the first cell of its row (backticks removed), from the table under <paramref name="heading"/> in <paramref name="doc"/> (e.g. "docs/cli.md").</summary>
    public static IReadOnlyDictionary<string, string> Read(string doc, string heading)
    {
        var lines = File.ReadAllLines(Path.Combine(RepositoryPaths.Root, doc));
        var start = Array.FindIndex(lines, l => l.StartsWith("## " + heading, StringComparison.Ordinal));
        Assert.True(start >= 0, $"{doc} has no section '{heading}'");
        var rows = lines.Skip(start + 1).SkipWhile(l => !l.StartsWith('|')).TakeWhile(l => l.StartsWith('|')).ToList();
        var column = Cells(rows[0]).FindIndex(c => c == "Server reasons");
        Assert.True(column > 0, $"the table under '{heading}' in {doc} has no 'Server reasons' column");

        var table = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var cells in rows.Skip(2).Select(Cells))
        {
            foreach (var reason in Reason().Matches(cells[column]).Select(m => m.Groups[1].Value))
            {
                Assert.True(table.TryAdd(reason, cells[0].Trim('`')), $"{reason} is in two rows of {doc}");
            }
        }

        return table;
    }

    private static List<string> Cells(string row) => [.. row.Trim().Trim('|').Split('|').Select(c => c.Trim())];

    [GeneratedRegex("`([A-Z][A-Z_]+[A-Z])`")]
    private static partial Regex Reason();
}
