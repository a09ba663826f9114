using System.Globalization;

namespace FileTransfer.Core;

/// <summary>
/// Event ids: <c>TTTTTTTTTTTTTTTTTTT-IIIIIIII-SSSSSSSSSS</c>, the event's time in ticks (19 digits), the
/// raising process (8 hex digits, new at each start) and that process's sequence (10 digits). Ids
/// sort as text in the order of their times, and within one process in the order it raised them;
/// a cursor (gRPC <c>after</c>, SSE <c>Last-Event-ID</c>) is compared with them as text.
/// </summary>
public static class EventIds
{
    public const int Length = 19 + 1 + 8 + 1 + 10;

    /// <summary>The id of the <paramref name="sequence"/>th event of process <paramref name="instance"/> at <paramref name="ticks"/>.</summary>
    public static string Of(long ticks, string instance, long sequence) =>
        string.Create(CultureInfo.InvariantCulture, $"{ticks:D19}-{instance}-{sequence % 10_000_000_000:D10}");

    /// <summary>True when <paramref name="id"/> has the form of an event id (any, retained or not).</summary>
    public static bool IsWellFormed(string? id)
    {
        if (id is not { Length: Length } || id[19] != '-' || id[28] != '-')
        {
            return false;
        }

        for (var i = 0; i < Length; i++)
        {
            var c = id[i];
            var ok = i is 19 or 28 || (i is > 19 and < 28 ? char.IsAsciiHexDigitLower(c) || char.IsAsciiDigit(c) : char.IsAsciiDigit(c));
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The time in <paramref name="id"/> (well formed).</summary>
    public static long TicksOf(string id) => long.Parse(id.AsSpan(0, 19), CultureInfo.InvariantCulture);

    /// <summary>The process in <paramref name="id"/> (well formed).</summary>
    public static string InstanceOf(string id) => id.Substring(20, 8);

    /// <summary>Throws the core's refusal for a cursor that is not an event id.</summary>
    public static string Check(string? after) => IsWellFormed(after)
        ? after!
        : throw new FileTransferException(ErrorReason.InvalidPageRequest, "The cursor (after, Last-Event-ID) is not an event id: pass the id of an event you received.");
}
