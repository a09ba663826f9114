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

    /// <summary>
    /// Every backend this server ships, as its own project describes it; the first is the default.
    /// Read one by one as <see cref="Choose"/> needs them, so that a backend's assembly is loaded
    /// only when it is named (the default configuration never loads S3's; docs/performance-notes.md).
    /// </summary>
    private static readonly Func<StorageBackendRegistration>[] Shipped = [() => LocalStorageRegistration.Backend, () => S3StorageRegistration.Backend];

    internal static IReadOnlyList<StorageBackendRegistration> Available => [.. Shipped.Select(backend => backend())];

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
            ? Shipped[0]()
            : Shipped.Select(backend => backend()).FirstOrDefault(backend => backend.Name.Equals(value, StringComparison.OrdinalIgnoreCase))
              ?? throw new InvalidOperationException($"{Key} must be {Alternatives()}, not '{value}'.");

    // "Local (the default) or S3".
    private static string Alternatives()
    {
        var available = Available;
        return $"{available[0].Name} (the default)" + string.Concat(available.Skip(1).Select((backend, i) => (i == available.Count - 2 ? " or " : ", ") + backend.Name));
    }

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
