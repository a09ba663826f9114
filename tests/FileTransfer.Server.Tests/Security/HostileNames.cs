namespace FileTransfer.Server.Tests.Security;

/// <summary>What the server does with a hostile request target, before any upload API exists or after.</summary>
public enum Outcome
{
    /// <summary>The resolver refuses the name: 400 problem on every method.</summary>
    Refused,

    /// <summary>Kestrel removes the dot segments (RFC 3986 5.2.4) and the request leaves api/files: 404 problem.</summary>
    NoRoute,

    /// <summary>A harmless name inside the root: GET/DELETE 404 problem, an upload stores it at the given name.</summary>
    Absent,

    /// <summary>Kestrel refuses the request line before the application runs: bare 400.</summary>
    BadRequestLine,

    /// <summary>Longer than Kestrel's request line limit (8 KiB): bare 414.</summary>
    UriTooLong,
}

/// <summary>
/// The hostile names, as raw request targets after "/api/files/". "{sandbox}" is replaced by the
/// sandbox's absolute path; &lt;NUL&gt; and &lt;SP&gt; by a raw NUL byte and a raw space.
/// </summary>
public static class HostileNames
{
    private static readonly Outcome WindowsOnly = OperatingSystem.IsWindows() ? Outcome.Refused : Outcome.Absent;

    public static TheoryData<string, Outcome, string?> All => new()
    {
        // Dot segments: Kestrel removes them after decoding, so they can only climb out of /api/files/.
        { "..", Outcome.NoRoute, null },
        { "../secret.txt", Outcome.NoRoute, null },
        { "../../secret.txt", Outcome.NoRoute, null },
        { "../../../secret.txt", Outcome.NoRoute, null },
        { "../../../../../../../../etc/passwd", Outcome.NoRoute, null },
        { "%2e%2e/secret.txt", Outcome.NoRoute, null },
        { "%2E%2E/%2E%2E/secret.txt", Outcome.NoRoute, null },
        { ".%2e/secret.txt", Outcome.NoRoute, null },
        { "%2e./secret.txt", Outcome.NoRoute, null },
        { "a/./../../secret.txt", Outcome.NoRoute, null },
        { "./secret.txt", Outcome.Absent, "secret.txt" },
        { "a/%2e/b", Outcome.Absent, "a/b" },

        // Encoded separators and double encoding stay encoded in the name, and are refused.
        { "%2e%2e%2fsecret.txt", Outcome.Refused, null },
        { "..%2fsecret.txt", Outcome.Refused, null },
        { "..%2F..%2F..%2Fsecret.txt", Outcome.Refused, null },
        { "sub/..%2f..%2f..%2fsecret.txt", Outcome.Refused, null },
        { "..%5csecret.txt", Outcome.Refused, null },
        { "%2e%2e%5c%2e%2e%5csecret.txt", Outcome.Refused, null },
        { "%252e%252e/secret.txt", Outcome.Refused, null },
        { "%252e%252e%252fsecret.txt", Outcome.Refused, null },
        { "%25252e%25252e%25252fsecret.txt", Outcome.Refused, null },
        { "%%32%65%%32%65/secret.txt", Outcome.Refused, null },
        { "....//secret.txt", Outcome.Refused, null },
        { "%c0%ae%c0%ae/secret.txt", Outcome.Refused, null },
        { "%e0%80%ae%e0%80%ae/secret.txt", Outcome.Refused, null },
        { "..%c0%afsecret.txt", Outcome.Refused, null },
        { "%ff%fe", Outcome.Refused, null },
        { "a%ED%A0%80b", Outcome.Refused, null },
        { "escape%2Fsecret.txt", Outcome.Refused, null },

        // Absolute, drive, UNC and device paths.
        { "/etc/passwd", Outcome.Refused, null },
        { "{sandbox}/secret.txt", Outcome.Refused, null },
        { "{sandbox}/d/e/outside/new.bin", Outcome.Refused, null },
        { "%2Fetc%2Fpasswd", Outcome.Refused, null },
        { "//server/share/secret.txt", Outcome.Refused, null },
        { "%5C%5Cserver%5Cshare%5Csecret.txt", Outcome.Refused, null },
        { "%5C%5C%3F%5CC:%5Csecret.txt", Outcome.Refused, null },
        { "%5C%5C.%5Cpipe%5Cx", Outcome.Refused, null },
        { "//?/C:/x", Outcome.Refused, null },
        { "C:/Windows/win.ini", Outcome.Refused, null },
        { "C:secret.txt", Outcome.Refused, null },
        { "c:%5Cx", Outcome.Refused, null },
        { "file:///etc/passwd", Outcome.Refused, null },

        // NUL and other control characters; Kestrel itself refuses NUL, raw or encoded.
        { "secret.txt%00.png", Outcome.BadRequestLine, null },
        { "%00", Outcome.BadRequestLine, null },
        { "..%00/secret.txt", Outcome.BadRequestLine, null },
        { "a<NUL>b", Outcome.BadRequestLine, null },
        { "a<SP>b", Outcome.BadRequestLine, null },
        { "a%0Ab", Outcome.Refused, null },
        { "a%0D%0ASet-Cookie:%20x=1", Outcome.Refused, null },
        { "a%09b", Outcome.Refused, null },
        { "a%1Fb", Outcome.Refused, null },
        { "a%7Fb", Outcome.Refused, null },
        { "a%C2%85b", Outcome.Refused, null },
        { "a%E2%80%A8b", Outcome.Refused, null },
        { "invoice%E2%80%AEfdp.exe", Outcome.Refused, null },
        { "a%E2%81%A6b", Outcome.Refused, null },

        // Empty segments.
        { "a//b", Outcome.Refused, null },
        { "a/", Outcome.Refused, null },
        { "%2F", Outcome.Refused, null },
        { "a/%2F/b", Outcome.Refused, null },

        // Lengths: 255 bytes per segment, 1024 in all; past 8 KiB Kestrel stops reading.
        { new string('a', 256), Outcome.Refused, null },
        { string.Concat(Enumerable.Repeat("%C3%A9", 128)), Outcome.Refused, null },
        { string.Join('/', [new string('a', 205), .. Enumerable.Repeat(new string('a', 204), 4)]), Outcome.Refused, null },
        { new string('a', 255), Outcome.Absent, new string('a', 255) },
        { string.Join('/', Enumerable.Repeat(new string('b', 204), 5)), Outcome.Absent, string.Join('/', Enumerable.Repeat(new string('b', 204), 5)) },
        { new string('a', 10_000), Outcome.UriTooLong, null },

        // The server's own temporary files.
        { ".ft-upload-1.tmp", Outcome.Refused, null },
        { "sub/.FT-x", Outcome.Refused, null },
        { "%2Eft-x", Outcome.Refused, null },
        { "%252Eft-x", Outcome.Refused, null },
        { ".Ft-partial/child.bin", Outcome.Refused, null },

        // Symbolic links inside the root that lead out: to a folder, a file, nowhere, via a chain, in a loop.
        { "escape/secret.txt", Outcome.Refused, null },
        { "escape/new.bin", Outcome.Refused, null },
        { "escape/sub/new.bin", Outcome.Refused, null },
        { "relative-escape/secret.txt", Outcome.Refused, null },
        { "relative-escape/e/outside/secret.txt", Outcome.Refused, null },
        { "secret-link.txt", Outcome.Refused, null },
        { "dangling", Outcome.Refused, null },
        { "dangling-dir/new.bin", Outcome.Refused, null },
        { "chain", Outcome.Refused, null },
        { "loop", Outcome.Refused, null },
        { "loop/x", Outcome.Refused, null },

        // Compatibility forms: a client that normalises names (NFKC) would turn these into "..", "/" or "\\".
        { "%EF%BC%8E%EF%BC%8E/secret.txt", Outcome.Refused, null },
        { "%EF%BC%8E%EF%BC%8E%EF%BC%8Fsecret.txt", Outcome.Refused, null },
        { "sub/%EF%BC%8E%EF%BC%8E%EF%BC%8F%EF%BC%8E%EF%BC%8E%EF%BC%8Fsecret.txt", Outcome.Refused, null },
        { "%EF%BC%8E", Outcome.Refused, null },
        { ".%EF%BC%8E/secret.txt", Outcome.Refused, null },
        { "%E2%80%A4%E2%80%A4/secret.txt", Outcome.Refused, null },
        { "%E2%80%A4", Outcome.Refused, null },
        { "%E2%80%A5", Outcome.Refused, null },
        { "%E2%80%A5/secret.txt", Outcome.Refused, null },
        { "%EF%B9%92%EF%B9%92/secret.txt", Outcome.Refused, null },
        { "%EF%B8%B0/secret.txt", Outcome.Refused, null },
        { "%EF%BC%8F", Outcome.Refused, null },
        { "a%EF%BC%8Fb", Outcome.Refused, null },
        { "%EF%BC%BC", Outcome.Refused, null },
        { "..%EF%BC%BCsecret.txt", Outcome.Refused, null },
        { "%EF%B9%A8%EF%B9%A8server%EF%B9%A8share", Outcome.Refused, null },
        { "%E2%84%85", Outcome.Refused, null },

        // Look-alikes and odd but harmless names: ordinary files inside the root.
        { "..../secret.txt", Outcome.Absent, "..../secret.txt" },
        { ".../secret.txt", Outcome.Absent, ".../secret.txt" },
        { "..;/secret.txt", Outcome.Absent, "..;/secret.txt" },
        { "%u002e%u002e/secret.txt", Outcome.Absent, "%u002e%u002e/secret.txt" },
        { "~/secret.txt", Outcome.Absent, "~/secret.txt" },
        { "a%E2%88%95b", Outcome.Absent, "a\u2215b" },
        { "%E2%81%84", Outcome.Absent, "\u2044" },
        { "%E2%80%A6", Outcome.Absent, "\u2026" },
        { "%EF%BC%8E%EF%BC%8E%EF%BC%8E", Outcome.Absent, "\uFF0E\uFF0E\uFF0E" },
        { "%EF%BC%8Ehidden", Outcome.Absent, "\uFF0Ehidden" },
        { "%EF%BC%A1%EF%BC%A2%EF%BC%A3.txt", Outcome.Absent, "\uFF21\uFF22\uFF23.txt" },
        { "%EF%BD%B6%EF%BE%9E.txt", Outcome.Absent, "\uFF76\uFF9E.txt" },
        { "%E6%97%A5%E6%9C%AC%E8%AA%9E/%E3%83%95%E3%82%A1%E3%82%A4%E3%83%AB.txt", Outcome.Absent, "\u65E5\u672C\u8A9E/\u30D5\u30A1\u30A4\u30EB.txt" },
        { "%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7", Outcome.Absent, "👨‍👩‍👧" },
        { "%C3%A9/%E6%97%A5%E6%9C%AC/%F0%9F%98%80.bin", Outcome.Absent, "é/日本/😀.bin" },
        { "a%3Fb", Outcome.Absent, "a?b" },
        { "a%23b", Outcome.Absent, "a#b" },
        { "100%25.txt", Outcome.Absent, "100%.txt" },
        { "CON", WindowsOnly, "CON" },
        { "a.txt::$DATA", WindowsOnly, "a.txt::$DATA" },
        { "x.txt.", WindowsOnly, "x.txt." },
    };
}
