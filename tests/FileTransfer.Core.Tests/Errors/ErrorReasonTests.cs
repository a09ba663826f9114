namespace FileTransfer.Core.Tests.Errors;

/// <summary>The wire strings of <see cref="ErrorReason"/> are part of the contract: clients switch on them.</summary>
public sealed class ErrorReasonTests
{
    /// <summary>Every reason's wire string, written out: renaming an enum member must not change what clients see.</summary>
    private static readonly Dictionary<ErrorReason, string> Pinned = new()
    {
        [ErrorReason.InvalidFileName] = "INVALID_FILE_NAME",
        [ErrorReason.InvalidRange] = "INVALID_RANGE",
        [ErrorReason.InvalidUploadStream] = "INVALID_UPLOAD_STREAM",
        [ErrorReason.InvalidPageRequest] = "INVALID_PAGE_REQUEST",
        [ErrorReason.FileNotFound] = "FILE_NOT_FOUND",
        [ErrorReason.OffsetPastEnd] = "OFFSET_PAST_END",
        [ErrorReason.FileTooLarge] = "FILE_TOO_LARGE",
        [ErrorReason.StorageFull] = "STORAGE_FULL",
        [ErrorReason.DigestMismatch] = "DIGEST_MISMATCH",
        [ErrorReason.SizeMismatch] = "SIZE_MISMATCH",
        [ErrorReason.FileExists] = "FILE_EXISTS",
        [ErrorReason.EtagMismatch] = "ETAG_MISMATCH",
        [ErrorReason.NameConflict] = "NAME_CONFLICT",
        [ErrorReason.Unauthenticated] = "UNAUTHENTICATED",
        [ErrorReason.PermissionDenied] = "PERMISSION_DENIED",
        [ErrorReason.RateLimited] = "RATE_LIMITED",
        [ErrorReason.StorageUnavailable] = "STORAGE_UNAVAILABLE",
        [ErrorReason.UploadIdle] = "UPLOAD_IDLE",
        [ErrorReason.TooManyFiles] = "TOO_MANY_FILES",
        [ErrorReason.MalformedMessage] = "MALFORMED_MESSAGE",
        [ErrorReason.InvalidLinkRequest] = "INVALID_LINK_REQUEST",
        [ErrorReason.UploadNotFound] = "UPLOAD_NOT_FOUND",
        [ErrorReason.UploadExpired] = "UPLOAD_EXPIRED",
        [ErrorReason.UploadOffsetMismatch] = "UPLOAD_OFFSET_MISMATCH",
        [ErrorReason.UploadBusy] = "UPLOAD_BUSY",
        [ErrorReason.UploadCompleted] = "UPLOAD_COMPLETED",
        [ErrorReason.ChecksumMismatch] = "CHECKSUM_MISMATCH",
        [ErrorReason.UnsupportedProtocolVersion] = "UNSUPPORTED_PROTOCOL_VERSION",
        [ErrorReason.DirectDownloadUnavailable] = "DIRECT_DOWNLOAD_UNAVAILABLE",
        [ErrorReason.UnsupportedMediaType] = "UNSUPPORTED_MEDIA_TYPE",
        [ErrorReason.RouteNotFound] = "ROUTE_NOT_FOUND",
        [ErrorReason.MethodNotAllowed] = "METHOD_NOT_ALLOWED",
        [ErrorReason.InternalError] = "INTERNAL_ERROR",
        [ErrorReason.QuotaExceeded] = "QUOTA_EXCEEDED",
        [ErrorReason.TooManyUploads] = "TOO_MANY_UPLOADS",
        [ErrorReason.UploadCancelled] = "UPLOAD_CANCELLED",
        [ErrorReason.UploadRejected] = "UPLOAD_REJECTED",
        [ErrorReason.HookUnavailable] = "HOOK_UNAVAILABLE",
    };

    public static TheoryData<ErrorReason> Reasons => [.. Enum.GetValues<ErrorReason>()];

    [Theory]
    [MemberData(nameof(Reasons))]
    public void Every_Reason_Has_Its_Pinned_Wire_String(ErrorReason reason)
    {
        Assert.True(Pinned.TryGetValue(reason, out var code), $"{reason} has no pinned wire string: add it here once it is agreed.");
        Assert.Equal(code, reason.Code());
    }

    [Fact]
    public void Every_Pinned_Wire_String_Still_Has_Its_Reason()
    {
        Assert.Equal(Pinned.Keys.Order(), Enum.GetValues<ErrorReason>().Order());
    }

    [Fact]
    public void Every_Reason_Has_A_Code_Of_Its_Own_In_Screaming_Snake_Case()
    {
        var codes = Enum.GetValues<ErrorReason>().Select(r => r.Code()).ToList();

        Assert.Equal(codes.Count, codes.Distinct(StringComparer.Ordinal).Count());
        Assert.All(codes, code => Assert.Matches("^[A-Z]+(_[A-Z]+)*$", code));
    }

    [Fact]
    public void A_Refusal_Carries_Its_Reason_And_Its_Message()
    {
        var refused = new FileTransferException(ErrorReason.RateLimited, "Slow down.") { RetryAfter = TimeSpan.FromSeconds(3) };

        Assert.Equal((ErrorReason.RateLimited, "Slow down.", TimeSpan.FromSeconds(3)), (refused.Reason, refused.Message, refused.RetryAfter));
    }
}
