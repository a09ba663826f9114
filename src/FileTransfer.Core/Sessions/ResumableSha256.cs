using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace FileTransfer.Core;

/// <summary>
/// SHA-256 (FIPS 180-4) whose running state can be saved and loaded: the eight hash words, the
/// number of bytes hashed, and the bytes of the block not yet complete. An upload session keeps it
/// with its durable offset, so that the digest of a file delivered in many requests, over several
/// protocols and server restarts, covers every byte once. .NET's <c>IncrementalHash</c> cannot
/// export its state, which is why this exists; it is used only where the state must outlive the
/// request (about 2-3 times slower than the platform's SHA-NI code; docs/resumable-uploads.md has
/// the measured figures).
/// </summary>
public sealed class ResumableSha256
{
    /// <summary>Bytes of <see cref="Export"/>: a format byte, the eight words, the length, one block.</summary>
    public const int StateSize = 1 + 32 + 8 + BlockSize;

    private const int BlockSize = 64;
    private const byte Format = 1;

    // FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static readonly uint[] K =
    [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];

    private readonly uint[] _h = new uint[8];
    private readonly byte[] _pending = new byte[BlockSize];
    private long _length;

    /// <summary>A hash of no bytes yet.</summary>
    public ResumableSha256()
    {
        // FIPS 180-4 5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
        ReadOnlySpan<uint> initial = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
        initial.CopyTo(_h);
    }

    /// <summary>Bytes hashed so far.</summary>
    public long Length => _length;

    /// <summary>A hash that continues from <paramref name="state"/>, as <see cref="Export"/> wrote it.</summary>
    /// <exception cref="FormatException">The state is not one this type wrote.</exception>
    public static ResumableSha256 Import(ReadOnlySpan<byte> state)
    {
        if (state.Length != StateSize || state[0] != Format)
        {
            throw new FormatException("Not a saved SHA-256 state.");
        }

        var hash = new ResumableSha256();
        for (var i = 0; i < 8; i++)
        {
            hash._h[i] = BinaryPrimitives.ReadUInt32BigEndian(state[(1 + (i * 4))..]);
        }

        hash._length = BinaryPrimitives.ReadInt64BigEndian(state[33..]);
        if (hash._length < 0)
        {
            throw new FormatException("Not a saved SHA-256 state.");
        }

        state.Slice(41, BlockSize).CopyTo(hash._pending);
        return hash;
    }

    /// <summary>The state as <see cref="StateSize"/> bytes: big-endian words and length, then the pending block (zero past its bytes).</summary>
    public byte[] Export()
    {
        var state = new byte[StateSize];
        state[0] = Format;
        for (var i = 0; i < 8; i++)
        {
            BinaryPrimitives.WriteUInt32BigEndian(state.AsSpan(1 + (i * 4)), _h[i]);
        }

        BinaryPrimitives.WriteInt64BigEndian(state.AsSpan(33), _length);
        _pending.AsSpan(0, PendingCount).CopyTo(state.AsSpan(41));
        return state;
    }

    /// <summary>An independent copy, e.g. to go back to if a request's bytes are refused.</summary>
    public ResumableSha256 Clone() => Import(Export());

    /// <summary>Hashes <paramref name="bytes"/> after everything hashed before.</summary>
    public void Append(ReadOnlySpan<byte> bytes)
    {
        var pending = PendingCount;
        _length += bytes.Length;
        if (pending > 0)
        {
            var taken = Math.Min(BlockSize - pending, bytes.Length);
            bytes[..taken].CopyTo(_pending.AsSpan(pending));
            bytes = bytes[taken..];
            if (pending + taken < BlockSize)
            {
                return;
            }

            Compress(_h, _pending);
        }

        var whole = bytes.Length - (bytes.Length % BlockSize);
        if (whole > 0)
        {
            Compress(_h, bytes[..whole]);
        }

        bytes[whole..].CopyTo(_pending);
    }

    /// <summary>
    /// The digest of every byte appended (FIPS 180-4 5.1.1 padding). The state is left as it was,
    /// so more bytes may follow.
    /// </summary>
    public byte[] Finish()
    {
        Span<uint> h = stackalloc uint[8];
        _h.CopyTo(h);

        // The pending bytes, 0x80, zeros, and the length in bits as a 64-bit big-endian integer:
        // one block, or two when fewer than 9 bytes are left in the first.
        var pending = PendingCount;
        Span<byte> tail = stackalloc byte[BlockSize * 2];
        tail.Clear();
        _pending.AsSpan(0, pending).CopyTo(tail);
        tail[pending] = 0x80;
        var size = pending + 9 <= BlockSize ? BlockSize : BlockSize * 2;
        BinaryPrimitives.WriteUInt64BigEndian(tail[(size - 8)..], (ulong)_length * 8);
        Compress(h, tail[..size]);

        var digest = new byte[32];
        for (var i = 0; i < 8; i++)
        {
            BinaryPrimitives.WriteUInt32BigEndian(digest.AsSpan(i * 4), h[i]);
        }

        return digest;
    }

    private int PendingCount => (int)(_length % BlockSize);

    // FIPS 180-4 6.2.2, over whole 64-byte blocks. Unrolled eight rounds at a time with the
    // variables renamed instead of shifted, and without bounds checks: about 1.5 times the speed of
    // the plain loop (measured; docs/resumable-uploads.md).
    [SkipLocalsInit]
    private static unsafe void Compress(Span<uint> state, ReadOnlySpan<byte> blocks)
    {
        var w = stackalloc uint[64];
        fixed (uint* k = K)
        fixed (byte* input = blocks)
        {
            uint a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
            for (var offset = 0; offset < blocks.Length; offset += BlockSize)
            {
                var block = (uint*)(input + offset);
                for (var t = 0; t < 16; t++)
                {
                    w[t] = BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(block[t]) : block[t];
                }

                for (var t = 16; t < 64; t++)
                {
                    var x = w[t - 15];
                    var y = w[t - 2];
                    w[t] = w[t - 16] + (BitOperations.RotateRight(x, 7) ^ BitOperations.RotateRight(x, 18) ^ (x >> 3))
                        + w[t - 7] + (BitOperations.RotateRight(y, 17) ^ BitOperations.RotateRight(y, 19) ^ (y >> 10));
                }

                uint sa = a, sb = b, sc = c, sd = d, se = e, sf = f, sg = g, sh = h;
                for (var t = 0; t < 64; t += 8)
                {
                    Round(a, b, c, ref d, e, f, g, ref h, k[t] + w[t]);
                    Round(h, a, b, ref c, d, e, f, ref g, k[t + 1] + w[t + 1]);
                    Round(g, h, a, ref b, c, d, e, ref f, k[t + 2] + w[t + 2]);
                    Round(f, g, h, ref a, b, c, d, ref e, k[t + 3] + w[t + 3]);
                    Round(e, f, g, ref h, a, b, c, ref d, k[t + 4] + w[t + 4]);
                    Round(d, e, f, ref g, h, a, b, ref c, k[t + 5] + w[t + 5]);
                    Round(c, d, e, ref f, g, h, a, ref b, k[t + 6] + w[t + 6]);
                    Round(b, c, d, ref e, f, g, h, ref a, k[t + 7] + w[t + 7]);
                }

                a += sa;
                b += sb;
                c += sc;
                d += sd;
                e += se;
                f += sf;
                g += sg;
                h += sh;
            }

            state[0] = a;
            state[1] = b;
            state[2] = c;
            state[3] = d;
            state[4] = e;
            state[5] = f;
            state[6] = g;
            state[7] = h;
        }
    }

    // One round (FIPS 180-4 6.2.2 step 3): the caller renames the eight variables for the next one,
    // so only d and h change here (d + T1 becomes the new e, T1 + T2 the new a).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Round(uint a, uint b, uint c, ref uint d, uint e, uint f, uint g, ref uint h, uint kw)
    {
        var t1 = h + (BitOperations.RotateRight(e, 6) ^ BitOperations.RotateRight(e, 11) ^ BitOperations.RotateRight(e, 25))
            + (g ^ (e & (f ^ g))) + kw;
        var t2 = (BitOperations.RotateRight(a, 2) ^ BitOperations.RotateRight(a, 13) ^ BitOperations.RotateRight(a, 22))
            + ((a & b) | (c & (a | b)));
        d += t1;
        h = t1 + t2;
    }
}
