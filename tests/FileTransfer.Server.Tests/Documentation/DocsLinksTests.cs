using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Documentation;

/// <summary>
/// Every relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file or folder that
/// exists, and every <c>#anchor</c> into a markdown file at one of its headings (as GitHub names
/// them), so that moving or renaming a section cannot silently break the docs.
/// </summary>
public sealed partial class DocsLinksTests
{
    public static TheoryData<string> Files { get; } = MarkdownFiles();

    [Theory]
    [MemberData(nameof(Files))]
    public void Every_Relative_Link_Points_At_An_Existing_File_And_Heading(string file)
    {
        var broken = Links(Docs.Text(file))
            .Select(target => (target, problem: Check(file, target)))
            .Where(link => link.problem is not null)
            .Select(link => $"{link.target}: {link.problem}")
            .ToList();

        Assert.True(broken.Count == 0, $"{file} has broken links:\n{string.Join('\n', broken)}");
    }

    [Fact]
    public void The_Docs_Index_Links_Every_Docs_File()
    {
        var linked = Links(Docs.Text("docs/README.md")).Select(target => target.Split('#')[0]).ToHashSet(StringComparer.Ordinal);
        var unlisted = Directory.EnumerateFiles(Path.Combine(RepositoryPaths.Root, "docs"), "*.md")
            .Select(path => Path.GetFileName(path))
            .Where(name => name != "README.md" && !linked.Contains(name))
            .ToList();

        Assert.True(unlisted.Count == 0, $"docs/README.md does not list {string.Join(", ", unlisted)}.");
    }

    [Theory]
    [InlineData("Quick start with curl", "quick-start-with-curl")]
    [InlineData("Client library (`FileTransferClient`)", "client-library-filetransferclient")]
    [InlineData("TLS (HTTP/1.1 and HTTP/2 on one port by ALPN)", "tls-http11-and-http2-on-one-port-by-alpn")]
    [InlineData("First run: the development key", "first-run-the-development-key")]
    [InlineData("`Storage`: where files go", "storage-where-files-go")]
    [InlineData("Limits that belong at an edge proxy", "limits-that-belong-at-an-edge-proxy")]
    [InlineData("See [Security](security.md) — keys", "see-security--keys")]
    public void Anchor_Is_The_Heading_As_GitHub_Names_It(string heading, string anchor) =>
        Assert.Equal(anchor, Anchor(heading));

    [Fact]
    public void A_Repeated_Heading_Gets_A_Numbered_Anchor()
    {
        var anchors = Anchors("# Status codes\n\n## Status codes\n\n```bash\n# Status codes\n```\n\n### Status codes\n");

        Assert.Equal(["status-codes", "status-codes-1", "status-codes-2"], anchors);
    }

    [Fact]
    public void Links_In_Code_Are_Not_Links()
    {
        var links = Links("[a](a.md) `[b](b.md)`\n\n```markdown\n[c](c.md)\n```\n![d](d.png) [e](https://example.com) [f](g.md#h \"title\")\n");

        Assert.Equal(["a.md", "d.png", "https://example.com", "g.md#h"], links);
    }

    private static TheoryData<string> MarkdownFiles()
    {
        var files = new TheoryData<string> { "README.md", "CONTRIBUTING.md" };
        foreach (var path in Directory.EnumerateFiles(Path.Combine(RepositoryPaths.Root, "docs"), "*.md").Order(StringComparer.Ordinal))
        {
            files.Add("docs/" + Path.GetFileName(path));
        }

        return files;
    }

    /// <summary>Null when <paramref name="target"/>, as written in <paramref name="file"/>, resolves; otherwise what is wrong.</summary>
    private static string? Check(string file, string target)
    {
        if (Scheme().IsMatch(target))
        {
            return null;
        }

        var hash = target.IndexOf('#', StringComparison.Ordinal);
        var path = Uri.UnescapeDataString(hash < 0 ? target : target[..hash]);
        var anchor = hash < 0 ? null : target[(hash + 1)..];
        var folder = Path.GetDirectoryName(file) ?? string.Empty;
        var resolved = path.Length == 0 ? file
            : path.StartsWith('/') ? path.TrimStart('/')
            : Path.GetRelativePath(RepositoryPaths.Root, Path.GetFullPath(Path.Combine(RepositoryPaths.Root, folder, path)));
        var full = Path.Combine(RepositoryPaths.Root, resolved);

        if (resolved.StartsWith("..", StringComparison.Ordinal))
        {
            return "leaves the repository";
        }

        if (!File.Exists(full) && !Directory.Exists(full))
        {
            return $"no file or folder {resolved}";
        }

        if (anchor is null || !resolved.EndsWith(".md", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        return Anchors(File.ReadAllText(full)).Contains(anchor) ? null : $"{resolved} has no heading #{anchor}";
    }

    /// <summary>The targets of inline links and images, outside code blocks and code spans.</summary>
    internal static IEnumerable<string> Links(string markdown) =>
        Link().Matches(CodeSpan().Replace(FencedCode().Replace(markdown, string.Empty), string.Empty))
            .Select(match => match.Groups["target"].Value);

    /// <summary>The anchor GitHub gives each heading, in order, numbered when a heading repeats.</summary>
    internal static List<string> Anchors(string markdown)
    {
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        var anchors = new List<string>();
        foreach (Match heading in Heading().Matches(FencedCode().Replace(markdown, string.Empty)))
        {
            var anchor = Anchor(heading.Groups["text"].Value);
            var count = seen.GetValueOrDefault(anchor);
            seen[anchor] = count + 1;
            anchors.Add(count == 0 ? anchor : $"{anchor}-{count}");
        }

        return anchors;
    }

    /// <summary>GitHub's rule: the rendered text in lower case, without punctuation and symbols, each space a hyphen.</summary>
    internal static string Anchor(string heading)
    {
        var text = Link().Replace(heading, match => match.Groups["text"].Value);
        var anchor = new StringBuilder();
        foreach (var c in text.Trim().ToLowerInvariant())
        {
            if (c == ' ')
            {
                anchor.Append('-');
            }
            else if (c is '-' or '_' || char.IsLetterOrDigit(c) || CharUnicodeInfo.GetUnicodeCategory(c) is UnicodeCategory.NonSpacingMark)
            {
                anchor.Append(c);
            }
        }

        return anchor.ToString();
    }

    [GeneratedRegex(@"!?\[(?<text>[^\]]*)\]\((?<target>[^)\s]+)(?:\s+""[^""]*"")?\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"^```.*?^```[^\n]*$", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex FencedCode();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex CodeSpan();

    [GeneratedRegex(@"^#{1,6}[ \t]+(?<text>.+?)[ \t]*#*[ \t]*$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"^[A-Za-z][A-Za-z0-9+.-]*:")]
    private static partial Regex Scheme();
}
