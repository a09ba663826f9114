using FileTransfer.Storage.S3;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.S3;

/// <summary>
/// The S3 settings checked at start without a store: each bound the data annotations checked
/// before, with the message that names the key (S3ConfigurationTests start a server for them, against RGW).
/// </summary>
public sealed class S3StorageOptionsValidatorTests
{
    public static TheoryData<Action<S3StorageOptions>, string> Wrong() => new()
    {
        { o => o.ServiceUrl = null, "Storage:S3:ServiceUrl is required when Storage:Backend is S3 (e.g. http://127.0.0.1:7480)." },
        { o => o.Bucket = null, "Storage:S3:Bucket is required when Storage:Backend is S3." },
        { o => o.AccessKey = " ", "Storage:S3:AccessKey is required when Storage:Backend is S3." },
        { o => o.SecretKey = null, "Storage:S3:SecretKey is required when Storage:Backend is S3." },
        { o => o.Region = "", "Storage:S3:Region must not be empty (default us-east-1)." },
        { o => o.RedirectSeconds = 0, "Storage:S3:RedirectSeconds must be between 1 and 604800 (7 days, the longest a SigV4 presigned URL may live)." },
        { o => o.RedirectSeconds = 604_801, "Storage:S3:RedirectSeconds must be between 1 and 604800 (7 days, the longest a SigV4 presigned URL may live)." },
        { o => o.AbandonedUploadAge = TimeSpan.FromSeconds(59), "Storage:S3:AbandonedUploadAge must be between 00:01:00 and 365.00:00:00." },
        { o => o.AbandonedUploadAge = TimeSpan.FromDays(365).Add(TimeSpan.FromTicks(1)), "Storage:S3:AbandonedUploadAge must be between 00:01:00 and 365.00:00:00." },
        { o => o.TimeoutSeconds = 0, "Storage:S3:TimeoutSeconds must be between 1 and 3600." },
        { o => o.TimeoutSeconds = 3601, "Storage:S3:TimeoutSeconds must be between 1 and 3600." },
    };

    [Theory]
    [MemberData(nameof(Wrong))]
    public void A_Wrong_Setting_Fails_With_The_Message_That_Names_Its_Key(Action<S3StorageOptions> change, string message)
    {
        var options = Valid();
        change(options);

        var result = Validator().Validate(null, options);

        Assert.Equal([message], result.Failures);
    }

    [Fact]
    public void The_Bounds_Themselves_Are_Accepted()
    {
        var lowest = Valid();
        (lowest.RedirectSeconds, lowest.AbandonedUploadAge, lowest.TimeoutSeconds) = (1, TimeSpan.FromMinutes(1), 1);
        var highest = Valid();
        (highest.RedirectSeconds, highest.AbandonedUploadAge, highest.TimeoutSeconds) = (604_800, TimeSpan.FromDays(365), 3600);

        Assert.True(Validator().Validate(null, lowest).Succeeded);
        Assert.True(Validator().Validate(null, highest).Succeeded);
    }

    private static S3StorageOptions Valid() => new()
    {
        ServiceUrl = "http://127.0.0.1:7480",
        Bucket = "files",
        AccessKey = "access",
        SecretKey = "secret",
    };

    private static S3StorageOptionsValidator Validator() => new(Options.Create(new StorageOptions()));
}
