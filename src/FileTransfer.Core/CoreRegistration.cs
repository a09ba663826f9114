using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core;

/// <summary>Registers the storage core; the host adds a backend and an <see cref="IContentTypeMap"/>.</summary>
public static class CoreRegistration
{
    public static IServiceCollection AddFileTransferCore(this IServiceCollection services)
    {
        services.AddOptions<StorageOptions>()
            .BindConfiguration(StorageOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<StorageOptions>, StorageOptionsAttributes>();
        services.AddMetrics();
        services.AddSingleton<TransferMetrics>();

        // Events and hooks: raised and asked by the operations; kept in the backend's event store.
        services.AddOptions<EventsOptions>()
            .BindConfiguration(EventsOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<EventsOptions>, EventsOptionsAttributes>();
        // HooksOptions' own members carry no attributes: EventsOptionsValidation checks each hook.
        services.AddOptions<HooksOptions>()
            .BindConfiguration(HooksOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<EventsOptions>, EventsOptionsValidation>();
        services.AddSingleton<IValidateOptions<HooksOptions>, EventsOptionsValidation>();
        services.AddSingleton(sp => new FileEvents(
            sp.GetService<IEventStore>(),
            sp.GetRequiredService<IOptions<EventsOptions>>(),
            sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILogger<FileEvents>>()));
        services.AddSingleton<UploadHooks>();
        services.AddHostedService<EventsWorker>();
        services.AddSingleton<FileOperations>();

        // Quotas: the rules here, each quota's record in the backend's store.
        services.AddOptions<QuotaOptions>()
            .BindConfiguration(QuotaOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<QuotaOptions>, QuotaOptionsValidator>();
        services.AddSingleton(sp => new Quotas(
            sp.GetRequiredService<IStorageBackend>(),
            sp.GetService<IQuotaStore>(),
            sp.GetService<IUploadSessionStore>(),
            sp.GetRequiredService<IOptions<QuotaOptions>>(),
            sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILogger<Quotas>>()));

        // Resumable uploads: the rules here, the sessions in the backend's store (none: refused).
        services.AddOptions<UploadSessionOptions>()
            .BindConfiguration(UploadSessionOptions.SectionName)
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<UploadSessionOptions>, UploadSessionOptionsAttributes>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(sp => new UploadSessions(
            sp.GetRequiredService<FileOperations>(),
            sp.GetService<IUploadSessionStore>(),
            sp.GetRequiredService<IOptions<UploadSessionOptions>>(),
            sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<ILogger<UploadSessions>>()));
        services.AddHostedService<UploadSessionSweeper>();
        return services;
    }

    private sealed class QuotaOptionsValidator : IValidateOptions<QuotaOptions>
    {
        public ValidateOptionsResult Validate(string? name, QuotaOptions options)
        {
            var problems = options.Problems().ToList();
            return problems.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problems);
        }
    }
}
