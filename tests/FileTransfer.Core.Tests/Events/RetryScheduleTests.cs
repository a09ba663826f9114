namespace FileTransfer.Core.Tests.Events;

/// <summary>The webhook retry schedule: within seconds at first, every 30 s at most for ten minutes, spaced out after, given up at a day.</summary>
public sealed class RetryScheduleTests
{
    [Theory]
    [InlineData(1, 0, 1)]
    [InlineData(2, 1, 2)]
    [InlineData(3, 3, 4)]
    [InlineData(5, 15, 16)]
    [InlineData(6, 31, 30)]
    [InlineData(40, 590, 30)]
    [InlineData(50, 700, 120)]
    [InlineData(60, 3 * 3600, 600)]
    [InlineData(80, 20 * 3600, 1800)]
    public void Waits_As_Documented(int attempts, int ageSeconds, int waitSeconds) =>
        Assert.Equal(TimeSpan.FromSeconds(waitSeconds), RetrySchedule.Next(attempts, TimeSpan.FromSeconds(ageSeconds)));

    [Fact]
    public void A_Receiver_Down_For_A_Minute_Is_Tried_Again_Within_Half_A_Minute_Of_Coming_Back_And_An_Event_Is_Tried_For_A_Day()
    {
        // Walk the schedule from the first failure: the longest wait in the first ten minutes is 30 s,
        // and the last try is at or after 24 h.
        var age = TimeSpan.Zero;
        var longestEarly = TimeSpan.Zero;
        var attempts = 0;
        while (RetrySchedule.Next(++attempts, age) is { } wait)
        {
            if (age < TimeSpan.FromMinutes(10))
            {
                longestEarly = wait > longestEarly ? wait : longestEarly;
            }

            age += wait;
        }

        Assert.Equal(TimeSpan.FromSeconds(30), longestEarly);
        Assert.True(age >= RetrySchedule.GiveUpAfter, age.ToString());
        Assert.True(age < RetrySchedule.GiveUpAfter + TimeSpan.FromMinutes(31), age.ToString());
    }
}
