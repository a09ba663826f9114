using System.Text;

namespace FileTransfer.Core.Tests.Listing;

/// <summary><see cref="NameOrder"/> is Unicode code point order, checked against a comparison of <see cref="Rune"/>s.</summary>
public sealed class NameOrderTests
{
    // Characters from each range whose UTF-16 order differs from code point order, and their neighbours.
    private static readonly string[] Alphabet =
    [
        "\0", " ", "-", ".", "/", "0", "A", "a", "~", "\u007F", "\u00E9", "\u07FF", "\u0800", "\u4E2D", "\uD7FF", "\uE000",
        "\uF8FF", "\uFB01", "\uFF0E", "\uFF5E", "\uFFFD", "\uFFFF", "\U00010000", "\U0001F600", "\U0001F601", "\U0010FFFF",
    ];

    [Theory]
    [InlineData("\uFF5E", "\U0001F600")] // FULLWIDTH TILDE before GRINNING FACE, whose UTF-16 starts 0xD83D
    [InlineData("x\uFF5E", "x\U0001F600")]
    [InlineData("\uE000", "\U00010000")]
    [InlineData("\uFFFF", "\U00010000")]
    [InlineData("\uD7FF", "\uE000")]
    [InlineData("\U0001F600", "\U0001F601")]
    [InlineData("\U0001F600", "\U0010FFFF")]
    [InlineData("a", "ab")]
    [InlineData("", "a")]
    [InlineData("a b", "a/b")]
    [InlineData("a.b", "a/b")]
    [InlineData("a/b", "a0")]
    [InlineData("A", "a")]
    public void Orders_By_Code_Point(string smaller, string larger)
    {
        Assert.True(NameOrder.Compare(smaller, larger) < 0, $"{Escape(smaller)} should sort before {Escape(larger)}");
        Assert.True(NameOrder.Compare(larger, smaller) > 0, $"{Escape(larger)} should sort after {Escape(smaller)}");
        Assert.True(ByRunes(smaller, larger) < 0);
    }

    [Fact]
    public void Agrees_With_Rune_Order_And_Utf8_Byte_Order_On_Random_Names()
    {
        var random = new Random(20261122);
        var names = Enumerable.Range(0, 3000)
            .Select(_ => string.Concat(Enumerable.Range(0, random.Next(0, 5)).Select(_ => Alphabet[random.Next(Alphabet.Length)])))
            .ToArray();

        for (var i = 0; i + 1 < names.Length; i++)
        {
            var (x, y) = (names[i], names[i + 1]);
            var expected = Math.Sign(ByRunes(x, y));
            Assert.True(expected == Math.Sign(NameOrder.Compare(x, y)), $"NameOrder.Compare({Escape(x)}, {Escape(y)}) should be {expected}");
            Assert.Equal(expected, Math.Sign(Encoding.UTF8.GetBytes(x).AsSpan().SequenceCompareTo(Encoding.UTF8.GetBytes(y))));
        }

        var sorted = names.Order(NameOrder.Instance).ToArray();
        Assert.Equal(names.Order(Comparer<string>.Create(ByRunes)), sorted);
        Assert.NotEqual(names.Order(StringComparer.Ordinal), sorted); // the alphabet tells the two orders apart
    }

    [Fact]
    public void Equal_Names_Compare_Equal()
    {
        Assert.Equal(0, NameOrder.Compare("a/\U0001F600", "a/\U0001F600"));
        Assert.Equal(0, NameOrder.Compare("", ""));
        Assert.Equal(0, ((IComparer<string>)NameOrder.Instance).Compare(null, null));
        Assert.True(((IComparer<string>)NameOrder.Instance).Compare(null, "a") < 0);
    }

    /// <summary>The reference: scalar values compared one by one, then the shorter first.</summary>
    private static int ByRunes(string? x, string? y)
    {
        var a = x!.EnumerateRunes().GetEnumerator();
        var b = y!.EnumerateRunes().GetEnumerator();
        while (true)
        {
            var (moreA, moreB) = (a.MoveNext(), b.MoveNext());
            if (!moreA || !moreB)
            {
                return moreA.CompareTo(moreB);
            }

            if (a.Current != b.Current)
            {
                return a.Current.Value.CompareTo(b.Current.Value);
            }
        }
    }

    private static string Escape(string name) =>
        string.Concat(name.EnumerateRunes().Select(r => r.Value < 0x80 && !Rune.IsControl(r) ? r.ToString() : $"U+{r.Value:X4}"));
}
