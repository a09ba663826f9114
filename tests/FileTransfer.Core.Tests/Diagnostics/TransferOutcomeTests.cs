namespace FileTransfer.Core.Tests.Diagnostics;

/// <summary>How a failed transfer counts in the metrics: the same for both protocols, for every reason.</summary>
public sealed class TransferOutcomeTests
{
    private static readonly Dictionary<ErrorReason, string> Expected = new()
    {
        [ErrorReason.InvalidFileName] = TransferOutcome.Rejected,
        [ErrorReason.InvalidRange] = TransferOutcome.Rejected,
        [ErrorReason.InvalidUploadStream] = TransferOutcome.Rejected,
        [ErrorReason.InvalidPageRequest] = TransferOutcome.Rejected,
        [ErrorReason.FileNotFound] = TransferOutcome.Rejected,
        [ErrorReason.OffsetPastEnd] = TransferOutcome.Rejected,
        [ErrorReason.FileTooLarge] = TransferOutcome.Rejected,
        [ErrorReason.StorageFull] = TransferOutcome.Failed,
        [ErrorReason.DigestMismatch] = TransferOutcome.Rejected,
        [ErrorReason.SizeMismatch] = TransferOutcome.Rejected,
        [ErrorReason.FileExists] = TransferOutcome.Rejected,
        [ErrorReason.EtagMismatch] = TransferOutcome.Rejected,
        [ErrorReason.NameConflict] = TransferOutcome.Rejected,
        [ErrorReason.Unauthenticated] = TransferOutcome.Rejected,
        [ErrorReason.PermissionDenied] = TransferOutcome.Rejected,
        [ErrorReason.RateLimited] = TransferOutcome.Rejected,
        [ErrorReason.StorageUnavailable] = TransferOutcome.Failed,
        [ErrorReason.UploadIdle] = TransferOutcome.Aborted,
        [ErrorReason.TooManyFiles] = TransferOutcome.Rejected,
        [ErrorReason.MalformedMessage] = TransferOutcome.Rejected,
        [ErrorReason.InvalidLinkRequest] = TransferOutcome.Rejected,
        [ErrorReason.UploadNotFound] = TransferOutcome.Rejected,
        [ErrorReason.UploadExpired] = TransferOutcome.Rejected,
        [ErrorReason.UploadOffsetMismatch] = TransferOutcome.Rejected,
        [ErrorReason.UploadBusy] = TransferOutcome.Rejected,
        [ErrorReason.UploadCompleted] = TransferOutcome.Rejected,
        [ErrorReason.ChecksumMismatch] = TransferOutcome.Rejected,
        [ErrorReason.UnsupportedProtocolVersion] = TransferOutcome.Rejected,
        [ErrorReason.DirectDownloadUnavailable] = TransferOutcome.Rejected,
        [ErrorReason.UnsupportedMediaType] = TransferOutcome.Rejected,
        [ErrorReason.RouteNotFound] = TransferOutcome.Rejected,
        [ErrorReason.MethodNotAllowed] = TransferOutcome.Rejected,
        [ErrorReason.InternalError] = TransferOutcome.Failed,
        [ErrorReason.QuotaExceeded] = TransferOutcome.Rejected,
        [ErrorReason.TooManyUploads] = TransferOutcome.Rejected,
        [ErrorReason.UploadCancelled] = TransferOutcome.Aborted,
        [ErrorReason.UploadRejected] = TransferOutcome.Rejected,
        [ErrorReason.HookUnavailable] = TransferOutcome.Failed,
    };

    public static TheoryData<ErrorReason> Reasons => [.. Enum.GetValues<ErrorReason>()];

    [Theory]
    [MemberData(nameof(Reasons))]
    public void Every_Reason_Counts_As_Its_Outcome(ErrorReason reason)
    {
        Assert.True(Expected.TryGetValue(reason, out var outcome), $"{reason} has no agreed outcome: add it here.");
        Assert.Equal(outcome, TransferOutcome.Of(reason));
    }

    [Fact]
    public void Outcomes_Are_The_Metric_Tags_Dashboards_Use()
    {
        Assert.Equal(
            ["aborted", "failed", "not_modified", "rejected", "success"],
            new[] { TransferOutcome.Success, TransferOutcome.NotModified, TransferOutcome.Rejected, TransferOutcome.Aborted, TransferOutcome.Failed }.Order(StringComparer.Ordinal));
    }
}
