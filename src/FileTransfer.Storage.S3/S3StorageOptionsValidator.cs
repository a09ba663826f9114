using System.Text;
using System.Text.RegularExpressions;
using FileTransfer.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The start-up checks annotations cannot express. Each message names the key and what it must be,
/// never the value (a URL may carry credentials, a key is a secret).
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
