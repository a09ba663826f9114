namespace FileTransfer.Core;

/// <summary>
/// The one order of listings on every backend and protocol: Unicode code point order of the names,
/// which is the byte order of their UTF-8 form, the order S3-compatible stores keep their keys in.
/// It differs from UTF-16 ordinal order only where a name holds a character above U+FFFF (a
/// surrogate pair) at the same place another holds one from U+E000 to U+FFFF.
/// </summary>
public sealed class NameOrder : IComparer<string>
{
    public static readonly NameOrder Instance = new();

    private NameOrder()
    {
    }

    public static int Compare(ReadOnlySpan<char> x, ReadOnlySpan<char> y)
    {
        var length = Math.Min(x.Length, y.Length);
        for (var i = 0; i < length; i++)
        {
            var a = x[i];
            var b = y[i];
            if (a != b)
            {
                // Code point order from UTF-16: surrogates (U+D800-U+DFFF) stand for code points
                // above U+FFFF, so they sort after every other code unit, not between U+D7FF and U+E000.
                return Weight(a) - Weight(b);
            }
        }

        return x.Length - y.Length;
    }

    int IComparer<string>.Compare(string? x, string? y) =>
        x is null || y is null ? string.CompareOrdinal(x, y) : Compare(x, y);

    private static int Weight(char c) => c < 0xD800 ? c : char.IsSurrogate(c) ? c + 0x2000 : c - 0x800;
}
