namespace FileTransfer.Core;

/// <summary>
/// When a failed webhook delivery is tried again. Within seconds at first, every 30 s at most for
/// the event's first 10 minutes (a receiver that was down for a minute has its events within a
/// minute of coming back), then every 2 minutes up to an hour, every 10 up to six hours, every 30
/// after; an event is given up once it is <see cref="GiveUpAfter"/> old and a try fails.
/// </summary>
public static class RetrySchedule
{
    /// <summary>How long an event is tried: at least a day.</summary>
    public static readonly TimeSpan GiveUpAfter = TimeSpan.FromHours(24);

    /// <summary>The wait after the <paramref name="attempts"/>th failed try of an event <paramref name="age"/> old; null: give up.</summary>
    public static TimeSpan? Next(int attempts, TimeSpan age)
    {
        if (age >= GiveUpAfter)
        {
            return null;
        }

        if (age < TimeSpan.FromMinutes(10))
        {
            return TimeSpan.FromSeconds(Math.Min(30, 1 << Math.Clamp(attempts - 1, 0, 5)));
        }

        return age < TimeSpan.FromHours(1) ? TimeSpan.FromMinutes(2)
            : age < TimeSpan.FromHours(6) ? TimeSpan.FromMinutes(10)
            : TimeSpan.FromMinutes(30);
    }
}
