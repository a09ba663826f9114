using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// The operations both protocols offer (stat, open a version, list, upload, delete), written once
/// over whichever backend holds the files. The REST controllers and the gRPC service only translate
/// their wire types to these calls; names, limits, digests, preconditions, listing tokens and
/// errors are decided here (or, for what only the medium knows, by the backend) and nowhere else.
/// Every operation receives its <see cref="Caller"/> and asks <see cref="AccessPolicy"/> first,
/// before the backend is asked anything. Every change raises its event through <see cref="FileEvents"/>,
/// and every upload passes the hooks (<see cref="UploadHooks"/>), here, once for every protocol.
/// </summary>
/// <param name="backend">Where the files are.</param>
/// <param name="contentTypes">The content type of a name.</param>
/// <param name="options">The storage limits.</param>
/// <param name="transfers">Where every transfer is counted, started where its bytes move.</param>
/// <param name="logger">Where stores and deletes are logged.</param>
/// <param name="quotas">The folders' quotas; null keeps none (a core without a host, in tests).</param>
/// <param name="events">Where changes are reported; null raises none (a core without a host, in tests).</param>
/// <param name="hooks">The hooks that may refuse an upload; null asks none.</param>
public sealed partial class FileOperations(
    IStorageBackend backend,
    IContentTypeMap contentTypes,
    IOptions<StorageOptions> options,
    TransferMetrics transfers,
    ILogger<FileOperations> logger,
    Quotas? quotas = null,
    FileEvents? events = null,
    UploadHooks? hooks = null)
{
    /// <summary>Where every transfer is counted: started here, where bytes move.</summary>
    internal TransferMetrics Transfers => transfers;

    // How long a plain upload's quota reservation lives without news (renewed while bytes arrive):
    // what a server that dies in the middle of an upload holds, at most, of a quota shared with others.
    private static readonly TimeSpan UploadHoldLifetime = TimeSpan.FromMinutes(30);

    internal FileEvents? Events => events;

    internal UploadHooks? Hooks => hooks;

    /// <summary>The backend's <see cref="IStorageBackend.Location"/>.</summary>
    public string Location => backend.Location;

    /// <summary>The current version of <paramref name="name"/> (no digest: see <see cref="OpenAsync(Caller, string, Preconditions, CancellationToken)"/>), if <paramref name="caller"/> may read it.</summary>
    public async ValueTask<FileVersion> StatAsync(Caller caller, string name, CancellationToken cancellationToken)
    {
        FileNames.Validate(name);
        AccessPolicy.Demand(caller, FileOperation.Read, name);
        var found = await backend.StatAsync(name, cancellationToken) ?? throw Failures.NotFound(name);
        return Describe(found);
    }

    /// <summary>Whether the backend answers (health checks).</summary>
    public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) => backend.IsAvailableAsync(cancellationToken);

    /// <summary>A stored version as both protocols describe it, with the content type of its name.</summary>
    public FileVersion Describe(StoredObject stored) => new(stored, contentTypes.For(stored.Name));
}
