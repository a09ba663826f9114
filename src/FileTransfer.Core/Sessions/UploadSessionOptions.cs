using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>Resumable upload sessions, bound from the <c>Uploads</c> configuration section.</summary>
public sealed class UploadSessionOptions
{
    public const string SectionName = "Uploads";

    /// <summary>
    /// Seconds a session lives after its last append (default 86,400: a day; before its first byte,
    /// <see cref="EmptyExpirySeconds"/> after its creation). An expired session is refused (tus 410)
    /// and removed with its bytes by the sweeper.
    /// </summary>
    [Range(1, 365 * 24 * 3600)]
    public int ExpirySeconds { get; set; } = 24 * 3600;

    /// <summary>
    /// Seconds a session that has not received a byte lives after its creation (default 3,600: an
    /// hour; never longer than <see cref="ExpirySeconds"/>). Its first bytes give it the full
    /// <see cref="ExpirySeconds"/>: sessions opened and never used go long before a day has passed.
    /// </summary>
    [Range(1, 365 * 24 * 3600)]
    public int EmptyExpirySeconds { get; set; } = 3600;

    /// <summary>
    /// Upload sessions in progress (begun, neither complete nor cancelled nor expired) one key or
    /// signed link may hold at once (default 100); one more is refused with <c>TOO_MANY_UPLOADS</c>.
    /// </summary>
    [Range(1, int.MaxValue)]
    public int MaxSessionsPerOwner { get; set; } = 100;

    /// <summary>Upload sessions in progress the server holds at once, all owners together (default 10,000); one more is refused with <c>TOO_MANY_UPLOADS</c>.</summary>
    [Range(1, int.MaxValue)]
    public int MaxSessions { get; set; } = 10_000;

    /// <summary>Seconds between two sweeps for expired sessions (default 300).</summary>
    [Range(1, 24 * 3600)]
    public int SweepIntervalSeconds { get; set; } = 300;

    /// <summary>
    /// Bytes one request appends between two saves of the session (default 64 MiB): a server that
    /// dies in the middle of a long request loses at most this much of it. Each save costs a flush
    /// of the bytes to the medium and a rewrite of the session record.
    /// </summary>
    [Range(256 * 1024, long.MaxValue)]
    public long CheckpointBytes { get; set; } = 64L * 1024 * 1024;

    internal TimeSpan Expiry => TimeSpan.FromSeconds(ExpirySeconds);

    internal TimeSpan EmptyExpiry => TimeSpan.FromSeconds(Math.Min(EmptyExpirySeconds, ExpirySeconds));
}

/// <summary>
/// Checks the attributes of <see cref="UploadSessionOptions"/> with code generated at build time, not by reflection
/// at start as ValidateDataAnnotations would (docs/performance-notes.md, "Loading less at start").
/// </summary>
[OptionsValidator]
internal sealed partial class UploadSessionOptionsAttributes : IValidateOptions<UploadSessionOptions>;
