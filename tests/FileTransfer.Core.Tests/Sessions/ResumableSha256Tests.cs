using System.Security.Cryptography;
using System.Text;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Sessions;

/// <summary>
/// The resumable SHA-256 gives the platform's digest (SHA256.HashData) for every input, however the
/// input is cut, and wherever its state is saved and loaded on the way.
/// </summary>
public sealed class ResumableSha256Tests
{
    // Around the block (64), the padding limit (55/56: the length no longer fits in the last block),
    // two blocks, and larger inputs with a remainder.
    public static TheoryData<int> Sizes => [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 65_536, (1024 * 1024) + 17];

    [Theory]
    [InlineData("", "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")]
    [InlineData("abc", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")]
    [InlineData("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248D6A61D20638B8E5C026930C3E6039A33CE45964FF2167F6ECEDD419DB06C1")]
    public void Gives_The_FIPS_180_Example_Digests(string message, string expected)
    {
        var hash = new ResumableSha256();
        hash.Append(Encoding.ASCII.GetBytes(message));

        Assert.Equal(expected, Convert.ToHexString(hash.Finish()));
    }

    [Fact]
    public void Gives_The_Digest_Of_A_Million_As_Fed_One_Byte_At_A_Time()
    {
        var hash = new ResumableSha256();
        for (var i = 0; i < 1_000_000; i++)
        {
            hash.Append("a"u8);
        }

        Assert.Equal("CDC76E5C9914FB9281A1C7E284D73E67F1809A48A497200E046D39CCC7112CD0", Convert.ToHexString(hash.Finish()));
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Equals_The_Platform_Digest_On_Random_Splits(int size)
    {
        var bytes = TestBytes.Random(size);
        var random = new Random(size);
        for (var round = 0; round < 20; round++)
        {
            var hash = new ResumableSha256();
            foreach (var piece in RandomSplits(bytes, random))
            {
                hash.Append(piece);
            }

            Assert.Equal(SHA256.HashData(bytes), hash.Finish());
            Assert.Equal(size, hash.Length);
        }
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public void Continues_From_A_Saved_State_Wherever_It_Was_Saved(int size)
    {
        var bytes = TestBytes.Random(size);
        var random = new Random(size + 1);
        for (var round = 0; round < 20; round++)
        {
            // Saved and loaded after every piece, as a session saves it after every request.
            var state = new ResumableSha256().Export();
            foreach (var piece in RandomSplits(bytes, random))
            {
                var hash = ResumableSha256.Import(state);
                hash.Append(piece);
                state = hash.Export();
            }

            Assert.Equal(SHA256.HashData(bytes), ResumableSha256.Import(state).Finish());
        }
    }

    [Fact]
    public void Finish_Leaves_The_State_So_That_More_Bytes_Can_Follow()
    {
        var first = TestBytes.Random(100);
        var second = TestBytes.Random(1000);
        var hash = new ResumableSha256();
        hash.Append(first);

        Assert.Equal(SHA256.HashData(first), hash.Finish());
        hash.Append(second);
        Assert.Equal(SHA256.HashData([.. first, .. second]), hash.Finish());
    }

    [Fact]
    public void A_Clone_Goes_Its_Own_Way()
    {
        var bytes = TestBytes.Random(300);
        var hash = new ResumableSha256();
        hash.Append(bytes.AsSpan(0, 100));
        var clone = hash.Clone();

        hash.Append(bytes.AsSpan(100));

        Assert.Equal(SHA256.HashData(bytes.AsSpan(0, 100)), clone.Finish());
        Assert.Equal(SHA256.HashData(bytes), hash.Finish());
    }

    [Fact]
    public void The_State_Is_Of_Fixed_Size_And_Anything_Else_Is_Refused()
    {
        var state = new ResumableSha256().Export();

        Assert.Equal(ResumableSha256.StateSize, state.Length);
        Assert.Throws<FormatException>(() => ResumableSha256.Import(state.AsSpan(1)));
        Assert.Throws<FormatException>(() => ResumableSha256.Import([]));
        state[0] = 2;
        Assert.Throws<FormatException>(() => ResumableSha256.Import(state));
    }

    /// <summary>Pieces of random sizes, empty ones included, mostly small, sometimes large.</summary>
    private static IEnumerable<byte[]> RandomSplits(byte[] bytes, Random random)
    {
        var offset = 0;
        while (offset < bytes.Length)
        {
            var length = Math.Min(bytes.Length - offset, random.Next(4) == 0 ? random.Next(0, 300_000) : random.Next(0, 130));
            yield return bytes[offset..(offset + length)];
            offset += length;
        }

        yield return [];
    }
}
