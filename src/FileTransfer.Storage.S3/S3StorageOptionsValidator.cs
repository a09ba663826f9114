using System.Text;
using System.Text.RegularExpressions;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The start-up checks of <see cref="S3StorageOptions"/>. Each message names the key and what it
/// must be, never the value (a URL may carry credentials, a key is a secret). Written out rather
/// than as data annotations: <c>ValidateDataAnnotations()</c> reads them by reflection (not
/// trim-safe), and the options source generator's copy of <c>RangeAttribute</c> drops
/// <c>ErrorMessage</c> (10.0.13), which these messages need.
/// </summary>
internal sealed partial class S3StorageOptionsValidator(IOptions<StorageOptions> storage) : IValidateOptions<S3StorageOptions>
{
    /// <summary>S3's largest object (and so the largest file): 10,000 parts of at most 1 GiB each (<see cref="PartSizes"/>) cover it.</summary>
    public const long MaxObjectBytes = 5L * 1024 * 1024 * 1024 * 1024;

    public ValidateOptionsResult Validate(string? name, S3StorageOptions options)
    {
        var problems = Problems(options).ToList();
        return problems.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problems);
    }

    private IEnumerable<string> Problems(S3StorageOptions options)
    {
        if (string.IsNullOrWhiteSpace(options.ServiceUrl))
        {
            yield return "Storage:S3:ServiceUrl is required when Storage:Backend is S3 (e.g. http://127.0.0.1:7480).";
        }

        if (string.IsNullOrWhiteSpace(options.Bucket))
        {
            yield return "Storage:S3:Bucket is required when Storage:Backend is S3.";
        }

        if (string.IsNullOrWhiteSpace(options.AccessKey))
        {
            yield return "Storage:S3:AccessKey is required when Storage:Backend is S3.";
        }

        if (string.IsNullOrWhiteSpace(options.SecretKey))
        {
            yield return "Storage:S3:SecretKey is required when Storage:Backend is S3.";
        }

        if (string.IsNullOrWhiteSpace(options.Region))
        {
            yield return "Storage:S3:Region must not be empty (default us-east-1).";
        }

        if (options.RedirectSeconds is < 1 or > 604_800)
        {
            yield return "Storage:S3:RedirectSeconds must be between 1 and 604800 (7 days, the longest a SigV4 presigned URL may live).";
        }

        if (options.AbandonedUploadAge < TimeSpan.FromMinutes(1) || options.AbandonedUploadAge > TimeSpan.FromDays(365))
        {
            yield return "Storage:S3:AbandonedUploadAge must be between 00:01:00 and 365.00:00:00.";
        }

        if (options.TimeoutSeconds is < 1 or > 3600)
        {
            yield return "Storage:S3:TimeoutSeconds must be between 1 and 3600.";
        }

        if (options.ServiceUrl is { Length: > 0 } && !IsEndpoint(options.ServiceUrl))
        {
            yield return "Storage:S3:ServiceUrl must be an absolute http:// or https:// URL without user name, password, query or fragment (e.g. http://127.0.0.1:7480).";
        }

        if (!string.IsNullOrEmpty(options.PublicServiceUrl) && !IsEndpoint(options.PublicServiceUrl))
        {
            yield return "Storage:S3:PublicServiceUrl must be an absolute http:// or https:// URL without user name, password, query or fragment.";
        }

        if (options.Bucket is { Length: > 0 } bucket && !BucketName().IsMatch(bucket))
        {
            yield return "Storage:S3:Bucket must be a DNS-compatible bucket name: 3-63 lower-case letters, digits, '.' and '-', starting and ending with a letter or digit.";
        }

        if (BucketClient.NormalizePrefix(options.Prefix) is { Length: > 0 } prefix
            && (FileNames.Check(prefix.TrimEnd('/')) is not null || Encoding.UTF8.GetByteCount(prefix) > 512))
        {
            yield return "Storage:S3:Prefix must be empty or a folder name that passes the file name rules (no leading '/', no '.', '..' or .ft- segments), at most 512 bytes.";
        }

        if (storage.Value.MaxFileSizeBytes > MaxObjectBytes)
        {
            yield return $"Storage:MaxFileSizeBytes must be at most {MaxObjectBytes} (5 TiB, the largest S3 object) when Storage:Backend is S3.";
        }
    }

    private static bool IsEndpoint(string url) =>
        Uri.TryCreate(url, UriKind.Absolute, out var uri)
        && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
        && uri.UserInfo.Length == 0 && uri.Query.Length == 0 && uri.Fragment.Length == 0;

    [GeneratedRegex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", RegexOptions.CultureInvariant)]
    private static partial Regex BucketName();
}
