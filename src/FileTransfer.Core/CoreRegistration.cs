using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Core;

/// <summary>Registers the storage core; the host adds a backend and an <see cref="IContentTypeMap"/>.</summary>
public static class CoreRegistration
{
    public static IServiceCollection AddFileTransferCore(this IServiceCollection services)
    {
        services.AddOptions<StorageOptions>()
            .BindConfiguration(StorageOptions.SectionName)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddMetrics();
        services.AddSingleton<TransferMetrics>();
        services.AddSingleton<FileOperations>();
        return services;
    }
}
