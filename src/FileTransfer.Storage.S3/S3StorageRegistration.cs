using FileTransfer.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Storage.S3;

/// <summary>Registers the object-store backend as the <see cref="IStorageBackend"/> and its <see cref="IUploadSessionStore"/>.</summary>
public static class S3StorageRegistration
{
    /// <summary>
    /// The object store as a host chooses it: <c>Storage:Backend=S3</c>. Replicas may share one
    /// bucket (leases and conditional writes live in the bucket).
    /// </summary>
    public static StorageBackendRegistration Backend { get; } = new("S3", StorageCapabilities.SharedByReplicas, services => services.AddS3Storage());

    /// <summary>
    /// The backend, its upload-session, event and quota stores, its settings (<c>Storage:S3</c>, checked at start), the
    /// bucket check at start and the sweep of abandoned multipart uploads.
    /// </summary>
    public static IServiceCollection AddS3Storage(this IServiceCollection services)
    {
        services.AddOptions<S3StorageOptions>()
            .BindConfiguration(S3StorageOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<S3StorageOptions>, S3StorageOptionsValidator>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<BucketClient>();
        services.AddSingleton<NameLeases>();
        services.AddSingleton<S3Digests>();
        services.AddSingleton<S3StorageBackend>();
        services.AddSingleton<IStorageBackend>(sp => sp.GetRequiredService<S3StorageBackend>());
        services.AddSingleton<S3UploadSessionStore>();
        services.AddSingleton<IUploadSessionStore>(sp => sp.GetRequiredService<S3UploadSessionStore>());
        services.AddSingleton<IQuotaStore, S3QuotaStore>();
        services.AddSingleton<IEventStore, S3EventStore>();
        services.AddHostedService<S3BucketStartup>();
        services.AddHostedService<AbandonedUploadSweeper>();
        return services;
    }
}
