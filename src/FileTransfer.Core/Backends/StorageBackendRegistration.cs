using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Core;

/// <summary>
/// A backend as a host chooses it, before any service exists: the name an operator gives in
/// <c>Storage:Backend</c>, what the backend is (<see cref="Capabilities"/>), and how its services
/// are registered. Each backend project supplies its own; a host lists the ones it ships and picks
/// one by name. Rules that depend on a backend's nature ask its capabilities, never its name.
/// </summary>
/// <param name="name">The value of <c>Storage:Backend</c> that selects it (compared without regard to case).</param>
/// <param name="capabilities">What rules outside the backend may rely on.</param>
/// <param name="addServices">Registers the <see cref="IStorageBackend"/>, its <see cref="IUploadSessionStore"/>, its options and its background work.</param>
public sealed class StorageBackendRegistration(string name, StorageCapabilities capabilities, Action<IServiceCollection> addServices)
{
    /// <summary>The value of <c>Storage:Backend</c> that selects this backend.</summary>
    public string Name { get; } = name;

    /// <summary>What rules outside the backend may rely on.</summary>
    public StorageCapabilities Capabilities { get; } = capabilities;

    /// <summary>Whether the backend has every one of <paramref name="capabilities"/>.</summary>
    public bool Has(StorageCapabilities capabilities) => (Capabilities & capabilities) == capabilities;

    /// <summary>Registers the backend's services, and this registration, so that rules can ask it at run time.</summary>
    public void AddTo(IServiceCollection services)
    {
        addServices(services);
        services.AddSingleton(this);
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}

/// <summary>What a backend is, as far as rules outside it care.</summary>
[Flags]
public enum StorageCapabilities
{
    /// <summary>Nothing beyond <see cref="IStorageBackend"/>'s contract.</summary>
    None = 0,

    /// <summary>
    /// Several server processes (replicas, on several machines) may serve one store at once and
    /// behave as one server: conditional writes and upload sessions hold across them. Whatever one
    /// replica issues, a signed link for example, must therefore hold on every other.
    /// </summary>
    SharedByReplicas = 1,
}
