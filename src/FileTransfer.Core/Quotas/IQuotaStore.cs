namespace FileTransfer.Core;

/// <summary>
/// Where a backend keeps each quota's record (<see cref="QuotaRecord"/>), durable across restarts
/// and, for a store shared by several servers, one record that all of them change. It decides
/// nothing: <see cref="Quotas"/> is the only caller.
/// </summary>
public interface IQuotaStore
{
    /// <summary>
    /// Changes the record of <paramref name="folder"/> atomically: <paramref name="change"/> gets the
    /// record as it is now (null when there is none) and returns the new one; no other change of the
    /// same record, in this process or any other sharing the store, comes between the read and the
    /// write. <paramref name="change"/> may run more than once (a conflicting write elsewhere), and
    /// may throw, which writes nothing. Returns the record written.
    /// </summary>
    ValueTask<QuotaRecord> UpdateAsync(string folder, Func<QuotaRecord?, QuotaRecord> change, CancellationToken cancellationToken);

    /// <summary>The record as last written, or null when there is none (or it cannot be read: then it is rebuilt).</summary>
    ValueTask<QuotaRecord?> ReadAsync(string folder, CancellationToken cancellationToken);
}
