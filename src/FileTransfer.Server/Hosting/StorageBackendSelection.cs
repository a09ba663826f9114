using FileTransfer.Core;
using FileTransfer.Server.Security;
using FileTransfer.Storage.Local;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// Registers the backend <c>Storage:Backend</c> names, from the registrations the backend projects
/// supply. Read from configuration while services are registered, since it decides which services
/// exist; everything else about the backend is its own options, validated at start.
/// </summary>
internal static class StorageBackendSelection
{
    public const string Key = StorageOptions.SectionName + ":Backend";

    /// <summary>Every backend this server ships, as its own project describes it; the first is the default.</summary>
    internal static readonly IReadOnlyList<StorageBackendRegistration> Available = [LocalStorageRegistration.Backend, S3StorageRegistration.Backend];

    public static StorageBackendRegistration AddStorageBackend(this WebApplicationBuilder builder)
    {
        var backend = Choose(builder.Configuration[Key]);
        backend.AddTo(builder.Services);
        builder.Services.AddSingleton<IValidateOptions<AuthOptions>, SharedSigningKey>();
        return backend;
    }

    /// <summary>The backend a <c>Storage:Backend</c> value names (case-insensitive; unset means the first).</summary>
    internal static StorageBackendRegistration Choose(string? value) =>
        string.IsNullOrEmpty(value)
            ? Available[0]
            : Available.FirstOrDefault(backend => backend.Name.Equals(value, StringComparison.OrdinalIgnoreCase))
              ?? throw new InvalidOperationException($"{Key} must be {Alternatives()}, not '{value}'.");

    // "Local (the default) or S3".
    private static string Alternatives() =>
        $"{Available[0].Name} (the default)" + string.Concat(Available.Skip(1).Select((backend, i) => (i == Available.Count - 2 ? " or " : ", ") + backend.Name));

    /// <summary>
    /// Replicas sharing one store are one server to their clients: a link one of them signs must open
    /// on every other, so the signing key comes from configuration, never from one process's memory.
    /// </summary>
    private sealed class SharedSigningKey(StorageBackendRegistration backend) : IValidateOptions<AuthOptions>
    {
        public ValidateOptionsResult Validate(string? name, AuthOptions options) =>
            backend.Has(StorageCapabilities.SharedByReplicas) && string.IsNullOrEmpty(options.SigningKey)
                ? ValidateOptionsResult.Fail($"Auth:SigningKey must be set (32+ characters) when Storage:Backend is {backend.Name}: every replica sharing the store must accept the links the others sign.")
                : ValidateOptionsResult.Success;
    }
}
