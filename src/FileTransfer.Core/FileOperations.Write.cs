using Microsoft.Extensions.Logging;

namespace FileTransfer.Core;

public sealed partial class FileOperations
{
    /// <summary>
    /// Checks what can be checked before any byte arrives (the caller's right to write the name,
    /// name, declared size against the limit, preconditions against the current version) and stages
    /// the write in the backend.
    /// </summary>
    public async ValueTask<Upload> BeginUploadAsync(Caller caller, UploadRequest request, CancellationToken cancellationToken)
    {
        // A transfer from the start: a refusal before the first byte counts as one too.
        var transfer = Transfers.Start(request.TransferOrigin, TransferDirection.Upload, request.Name);
        (request, var name, var maxBytes) = await CheckUploadAsync(caller, request, cancellationToken);
        var hold = await ReserveAsync("upload:" + Guid.NewGuid().ToString("N"), name, request.DeclaredLength, UploadHoldLifetime, cancellationToken);
        try
        {
            var staged = await backend.StageAsync(name, request.DeclaredLength, cancellationToken);
            return new Upload(request, staged, maxBytes, transfer, hold) { Origin = ChangeOrigin.Of(caller, request.Protocol) };
        }
        catch
        {
            await (hold?.ReleaseAsync() ?? ValueTask.CompletedTask);
            throw;
        }
    }

    /// <summary>
    /// What every upload, streamed or resumable, is held to before its first byte: the name, the
    /// caller's right to write it, the declared size against the limit (the storage's, or the
    /// request's narrower one), and the preconditions against the current version. Returns the request
    /// as the caller's grant narrows it (a signed link's cap and digest), the name and the limit in force.
    /// </summary>
    internal async ValueTask<(UploadRequest Request, string Name, long MaxBytes)> CheckUploadAsync(Caller caller, UploadRequest request, CancellationToken cancellationToken)
    {
        var name = FileNames.Validate(request.Name);
        AccessPolicy.Demand(caller, FileOperation.Write, name);
        request = AccessPolicy.Narrow(caller, request);
        var maxBytes = Math.Min(options.Value.MaxFileSizeBytes, request.MaxBytes ?? long.MaxValue);
        if (request.DeclaredLength is { } declared && declared > maxBytes)
        {
            throw Failures.DeclaredTooLarge(declared, maxBytes);
        }

        // Checked again, atomically with the replace, at commit; here so that a client that is bound
        // to be refused is refused before it sends gigabytes.
        if (!request.Preconditions.IsNone)
        {
            request.Preconditions.Check(name, await backend.StatAsync(name, cancellationToken));
        }

        if (hooks is { HasPreUpload: true })
        {
            await hooks.BeforeUploadAsync(name, request.DeclaredLength, ChangeOrigin.Of(caller, request.Protocol), uploadId: null, cancellationToken);
        }

        return (request, name, maxBytes);
    }

    /// <summary>
    /// Commits a staged write whose bytes were verified elsewhere (a resumable upload's, handed over
    /// by its session store), through the same pre-commit hook and backend commit as every other
    /// upload; raises the file's event and the session's upload.completed.
    /// </summary>
    internal async ValueTask<UploadResult> CommitStagedAsync(IStagedObject staged, UploadSession session, byte[] sha256, ChangeOrigin origin, QuotaHold? hold, CancellationToken cancellationToken)
    {
        if (hooks is { HasPreCommit: true })
        {
            await hooks.BeforeCommitAsync(session.Name, session.Offset, sha256, origin, session.Id, cancellationToken);
        }

        CommittedObject committed;
        Task? raised = null;
        using (events is null ? null : await events.OrderAsync([session.Name], cancellationToken))
        {
            committed = (await backend.CommitAsync([new PendingCommit(staged, session.Preconditions, sha256)], cancellationToken))[0];
            if (events is not null)
            {
                var stored = FileEvent.Stored(committed.Object, sha256, committed.Replaced, origin);
                raised = events.RaiseAsync(stored, stored with { Type = FileEventTypes.UploadCompleted, UploadId = session.Id });
            }
        }

        await (hold?.CommitAsync(committed.Object.Size, committed.Replaced, committed.ReplacedSize, cancellationToken) ?? ValueTask.CompletedTask);
        LogStored(logger, committed.Object.Name, committed.Object.Size, committed.Replaced);
        await (raised ?? Task.CompletedTask);
        return new UploadResult(Describe(committed.Object), sha256, committed.Replaced);
    }

    /// <summary>
    /// Verifies the upload's length and digest and makes it the current version of its name, if
    /// its preconditions still hold. Returns the stored version, its SHA-256, and whether it replaced a file.
    /// </summary>
    public async ValueTask<UploadResult> CommitAsync(Upload upload, CancellationToken cancellationToken) =>
        (await CommitAllAsync([upload], cancellationToken))[0];

    /// <summary>
    /// Commits several uploads as one: each is verified first, then the backend checks every
    /// precondition before the first becomes visible, so a failed check stores none of them.
    /// </summary>
    public async ValueTask<IReadOnlyList<UploadResult>> CommitAllAsync(IReadOnlyList<Upload> uploads, CancellationToken cancellationToken)
    {
        if (uploads.Select(u => u.Name).Distinct(StringComparer.Ordinal).Count() != uploads.Count)
        {
            // Checked against the current versions before any becomes visible, a name's second
            // version would pass a precondition that its first version breaks.
            throw new ArgumentException("Each name may be committed once per call.", nameof(uploads));
        }

        var pending = new PendingCommit[uploads.Count];
        for (var i = 0; i < uploads.Count; i++)
        {
            pending[i] = new PendingCommit(uploads[i].Staged, uploads[i].Request.Preconditions, await uploads[i].VerifyAsync(cancellationToken));
        }

        if (hooks is { HasPreCommit: true })
        {
            for (var i = 0; i < uploads.Count; i++)
            {
                await hooks.BeforeCommitAsync(uploads[i].Name, uploads[i].Length, pending[i].Sha256, uploads[i].Origin, uploadId: null, cancellationToken);
            }
        }

        IReadOnlyList<CommittedObject> committed;
        Task? raised = null;
        using (events is null ? null : await events.OrderAsync(uploads.Select(u => u.Name), cancellationToken))
        {
            committed = await backend.CommitAsync(pending, cancellationToken);
            if (events is not null)
            {
                raised = events.RaiseAsync([.. committed.Select((c, i) => FileEvent.Stored(c.Object, pending[i].Sha256, c.Replaced, uploads[i].Origin))]);
            }
        }

        var results = new UploadResult[committed.Count];
        for (var i = 0; i < committed.Count; i++)
        {
            var stored = committed[i].Object;
            await (uploads[i].Hold?.CommitAsync(stored.Size, committed[i].Replaced, committed[i].ReplacedSize, cancellationToken) ?? ValueTask.CompletedTask);
            LogStored(logger, stored.Name, stored.Size, committed[i].Replaced);
            results[i] = new UploadResult(Describe(stored), pending[i].Sha256, committed[i].Replaced);
        }

        await (raised ?? Task.CompletedTask);
        return results;
    }

    /// <summary>
    /// Deletes the current version of <paramref name="name"/> if <paramref name="caller"/> may and
    /// <paramref name="preconditions"/> hold; <paramref name="protocol"/> is what its event reports.
    /// </summary>
    public async ValueTask DeleteAsync(Caller caller, TransferProtocol protocol, string name, Preconditions preconditions, CancellationToken cancellationToken)
    {
        FileNames.Validate(name);
        AccessPolicy.Demand(caller, FileOperation.Delete, name);
        Task? raised = null;
        long removedSize;
        using (events is null ? null : await events.OrderAsync([name], cancellationToken))
        {
            removedSize = (await backend.DeleteAsync(name, preconditions, cancellationToken) ?? throw Failures.NotFound(name)).Size;
            raised = events?.RaiseAsync(FileEvent.Draft(FileEventTypes.FileDeleted, name, ChangeOrigin.Of(caller, protocol)));
        }

        if (quotas is { IsEnabled: true })
        {
            await quotas.DeletedAsync(name, removedSize, cancellationToken);
        }

        LogDeleted(logger, name);
        await (raised ?? Task.CompletedTask);
    }

    /// <summary>
    /// Reserves what an upload of <paramref name="name"/> declares in every quota over it (one that
    /// declares nothing reserves one file now, and bytes as they arrive); null when no quota applies.
    /// </summary>
    internal ValueTask<QuotaHold?> ReserveAsync(string id, string name, long? declared, TimeSpan lifetime, CancellationToken cancellationToken) =>
        quotas is { IsEnabled: true }
            ? quotas.ReserveAsync(id, name, declared ?? 0, lifetime, cancellationToken)
            : ValueTask.FromResult<QuotaHold?>(null);

    /// <summary>The quota hold of an upload that reserved earlier (a session), or null when no quota applies.</summary>
    internal QuotaHold? ResumeHold(string id, string name, long reserved, TimeSpan lifetime) =>
        quotas is { IsEnabled: true } ? quotas.Resume(id, name, reserved, lifetime) : null;

    [LoggerMessage(EventId = 30, Level = LogLevel.Information, Message = "Stored {Name} ({Size} bytes, replaced: {Replaced})")]
    private static partial void LogStored(ILogger logger, string name, long size, bool replaced);

    [LoggerMessage(EventId = 31, Level = LogLevel.Information, Message = "Deleted {Name}")]
    private static partial void LogDeleted(ILogger logger, string name);
}
