using FileTransfer.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.Local;

/// <summary>Registers the local-disk backend as the <see cref="IStorageBackend"/> and its <see cref="IUploadSessionStore"/>.</summary>
public static class LocalStorageRegistration
{
    /// <summary>The local disk as a host chooses it: <c>Storage:Backend=Local</c>, the embedded default.</summary>
    public static StorageBackendRegistration Backend { get; } = new("Local", StorageCapabilities.None, services => services.AddLocalStorage());

    /// <summary>The backend, its upload-session, event and quota stores, its settings (<c>Storage:RootPath</c>) and the stale-upload sweep.</summary>
    public static IServiceCollection AddLocalStorage(this IServiceCollection services)
    {
        services.AddOptions<LocalStorageOptions>()
            .BindConfiguration(StorageOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<LocalStorageOptions>, LocalStorageOptionsAttributes>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<LocalRoot>();
        services.AddSingleton<LocalPaths>();
        services.AddSingleton<DigestSidecars>();
        services.AddSingleton<OpenFileCache>();
        services.AddSingleton<NameLocks>();
        services.AddSingleton<LocalStorageBackend>();
        services.AddSingleton<IStorageBackend>(sp => sp.GetRequiredService<LocalStorageBackend>());
        services.AddSingleton<LocalUploadSessionStore>();
        services.AddSingleton<IUploadSessionStore>(sp => sp.GetRequiredService<LocalUploadSessionStore>());
        services.AddSingleton<IQuotaStore, LocalQuotaStore>();
        services.AddSingleton<IEventStore, LocalEventStore>();
        services.AddHostedService<StaleUploadSweeper>();
        return services;
    }
}
