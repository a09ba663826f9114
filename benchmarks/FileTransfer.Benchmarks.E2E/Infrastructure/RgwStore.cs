namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// The Ceph RADOS Gateway the S3 rows run against, named as the tests name it: <c>FT_S3_SERVICE_URL</c>,
/// <c>FT_S3_ACCESS_KEY</c>, <c>FT_S3_SECRET_KEY</c> (what <c>scripts/ceph-rgw.sh start DIR</c> writes to
/// DIR/env, and what scripts/test.sh exports for the smoke run). Without them the S3 rows are skipped.
/// </summary>
internal sealed record RgwStore(string ServiceUrl, string AccessKey, string SecretKey)
{
    public const string Missing = "no Ceph RGW named: start one with scripts/ceph-rgw.sh start DIR and export DIR/env (FT_S3_*)";

    /// <summary>The shared signing key of the S3 copies: replicas of one store need one (the server refuses to start on S3 without it).</summary>
    private const string SigningKey = "benchmark-s3-signing-key-0123456789abcdef";

    public static RgwStore? FromEnvironment() =>
        (Environment.GetEnvironmentVariable("FT_S3_SERVICE_URL"), Environment.GetEnvironmentVariable("FT_S3_ACCESS_KEY"), Environment.GetEnvironmentVariable("FT_S3_SECRET_KEY"))
            is ({ Length: > 0 } url, { Length: > 0 } access, { Length: > 0 } secret)
            ? new RgwStore(url, access, secret)
            : null;

    /// <summary>The settings that put a copy of ours on <paramref name="bucket"/> (created by the server at start).</summary>
    public Dictionary<string, string> ServerEnvironment(string bucket, bool redirect) => new()
    {
        ["Storage__Backend"] = "S3",
        ["Storage__S3__ServiceUrl"] = ServiceUrl,
        ["Storage__S3__Bucket"] = bucket,
        ["Storage__S3__AccessKey"] = AccessKey,
        ["Storage__S3__SecretKey"] = SecretKey,
        ["Storage__S3__RedirectDownloads"] = redirect ? "true" : "false",
        // Long enough for every run of a full benchmark from one URL (the direct rows reuse the warm-up's).
        ["Storage__S3__RedirectSeconds"] = "86400",
        ["Auth__SigningKey"] = SigningKey,
    };
}
