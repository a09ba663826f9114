using System.Text;
using FileTransfer.Server.Tests.Storage;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Property: for any name, the resolver refuses it or returns a path under the root, and creating
/// that path the way an upload does (the operating system resolving every link) writes nothing
/// outside the root. Names are drawn from a hostile alphabet with a fixed seed, so a failure
/// reproduces; the failing name is in the message.
/// </summary>
public sealed class ResolverPropertyTests : IDisposable
{
    private const int Seed = 4_2026;
    private const int Iterations = 20_000;

    private static readonly string[] Alphabet =
    [
        "a", "b", "é", "日", "😀", "\uD83D", "\uDE00", ".", "..", "...", "/", "//", "\\", "%", "%2e", "%2E", "%2f", "%5c", "%25",
        "%252e", "2e", ":", "C:", "\0", "\n", "\t", "\u007F", "\u0085", "\u202E", "\u2066", "\u200D", " ", "~", "?", "*",
        ".ft-", ".FT-", "\u2024", "\u2025", "\u2026", "\uFE19", "\uFE30", "\uFE52", "\uFF0E", "\uFF0F", "\uFF3C", "\uFE68",
        "\u2100", "\u2105", "\u2215", "\u2044", "\uFF21", "\u65E5", "\u33A1", "escape", "relative-escape", "secret-link.txt", "dangling",
        "dangling-dir", "chain", "chain2", "loop", "loop2", "inside-alias", "inside", "secret.txt", "d", "e", "root", "outside",
    ];

    // NFKC (UAX #15) of the alphabet's compatibility characters, from the Unicode Character
    // Database; every other entry is its own NFKC form. The process runs with invariant
    // globalization, where string.Normalize cannot be asked.
    private static readonly Dictionary<char, string> Nfkc = new()
    {
        ['\u2024'] = ".", ['\u2025'] = "..", ['\u2026'] = "...", ['\uFE19'] = "...", ['\uFE30'] = "..", ['\uFE52'] = ".",
        ['\uFF0E'] = ".", ['\uFF0F'] = "/", ['\uFF3C'] = "\\", ['\uFE68'] = "\\", ['\u2100'] = "a/c", ['\u2105'] = "c/o",
        ['\uFF21'] = "A", ['\u33A1'] = "m2",
    };

    private readonly Sandbox _sandbox = new();

    [Fact]
    public void Random_Names_Are_Refused_Or_Resolve_Under_The_Root_And_Never_Write_Outside_It()
    {
        using var resolver = PathResolverTests.Create(_sandbox.RootPath);
        var random = new Random(Seed);
        var (accepted, refused) = (0, 0);

        for (var i = 0; i < Iterations; i++)
        {
            var name = Generate(random);
            if (!resolver.TryResolve(name, out var path, out var rejection))
            {
                refused++;
                Assert.DoesNotContain(_sandbox.Path, rejection.Reason, StringComparison.Ordinal);
                continue;
            }

            accepted++;
            Assert.True(path == Path.Join(_sandbox.RootPath, name), $"name changed: {Show(name)}");
            Assert.False(IsTraversal(Normalise(name), name), $"a normalising client would read a traversal into {Show(name)}");
            Assert.True(path.StartsWith(_sandbox.RootPath + Path.DirectorySeparatorChar, StringComparison.Ordinal), $"outside the root: {Show(name)}");
            CreateAsAnUploadWould(path);
            _sandbox.AssertOutsideUntouched($"seed {Seed}, iteration {i}, name {Show(name)}");
        }

        // Both sides of the property were exercised, not only the easy one.
        Assert.True(accepted > 1_000 && refused > 1_000, $"accepted {accepted}, refused {refused}");
    }

    private static string Generate(Random random)
    {
        var name = new StringBuilder();
        for (var count = random.Next(1, 10); count > 0; count--)
        {
            name.Append(Alphabet[random.Next(Alphabet.Length)]);
        }

        return name.ToString();
    }

    private static string Normalise(string name) =>
        string.Concat(name.Select(c => Nfkc.TryGetValue(c, out var folded) ? folded : c.ToString()));

    // A separator that was not there, or a '.'/'..' segment, once a client has normalised the name.
    private static bool IsTraversal(string normalised, string name) =>
        normalised.Contains('\\')
        || normalised.Count(c => c == '/') != name.Count(c => c == '/')
        || normalised.Split('/').Any(segment => segment is "." or "..");

    private static void CreateAsAnUploadWould(string fullPath)
    {
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(fullPath)!);
            File.WriteAllText(fullPath, "x");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A folder already has that name, or a file stands where a folder is needed: the OS
            // refused, which writes nothing anywhere.
        }
    }

    private static string Show(string name) =>
        string.Concat(name.Select(c => char.IsControl(c) || char.IsSurrogate(c) || c > '\u2000' ? $"\\u{(int)c:X4}" : c.ToString()));

    public void Dispose() => _sandbox.Dispose();
}
