using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>
/// The operations both protocols offer (stat, open a version, list, upload, delete), written once
/// over whichever backend holds the files. The REST controllers and the gRPC service only translate
/// their wire types to these calls; names, limits, digests, preconditions, listing tokens and
/// errors are decided here (or, for what only the medium knows, by the backend) and nowhere else.
/// </summary>
public sealed partial class FileOperations(
    IStorageBackend backend,
    IContentTypeMap contentTypes,
    IOptions<StorageOptions> options,
    TransferMetrics transfers,
    ILogger<FileOperations> logger)
{
    /// <summary>Where every transfer is counted: started here, where bytes move.</summary>
    internal TransferMetrics Transfers => transfers;

    /// <summary>The backend's <see cref="IStorageBackend.Location"/>.</summary>
    public string Location => backend.Location;

    /// <summary>The current version of <paramref name="name"/> (no digest: see <see cref="OpenAsync(string, Preconditions, CancellationToken)"/>).</summary>
    public async ValueTask<FileVersion> StatAsync(string name, CancellationToken cancellationToken)
    {
        FileNames.Validate(name);
        var found = await backend.StatAsync(name, cancellationToken) ?? throw Failures.NotFound(name);
        return Describe(found);
    }

    /// <summary>Whether the backend answers (health checks).</summary>
    public ValueTask<bool> IsAvailableAsync(CancellationToken cancellationToken) => backend.IsAvailableAsync(cancellationToken);

    /// <summary>A stored version as both protocols describe it, with the content type of its name.</summary>
    public FileVersion Describe(StoredObject stored) => new(stored, contentTypes.For(stored.Name));
}
