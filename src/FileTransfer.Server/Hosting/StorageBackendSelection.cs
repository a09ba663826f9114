using FileTransfer.Core;
using FileTransfer.Server.Security;
using FileTransfer.Storage.Local;
using FileTransfer.Storage.S3;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>Which medium holds the files: <c>Storage:Backend</c>.</summary>
internal enum StorageBackendKind
{
    /// <summary>A folder of the local disk (<c>Storage:RootPath</c>), the embedded default.</summary>
    Local,

    /// <summary>An S3-compatible bucket (<c>Storage:S3:*</c>), which several replicas can share.</summary>
    S3,
}

/// <summary>
/// Registers the backend <c>Storage:Backend</c> names. Read from configuration while services are
/// registered, since it decides which services exist; everything else about the backend is its own
/// options, validated at start.
/// </summary>
internal static class StorageBackendSelection
{
    public const string Key = StorageOptions.SectionName + ":Backend";

    public static StorageBackendKind AddStorageBackend(this WebApplicationBuilder builder)
    {
        var kind = Parse(builder.Configuration[Key]);
        if (kind == StorageBackendKind.S3)
        {
            builder.Services.AddS3Storage();
            builder.Services.AddSingleton<IValidateOptions<AuthOptions>, SharedSigningKey>();
        }
        else
        {
            builder.Services.AddLocalStorage();
        }

        return kind;
    }

    /// <summary>The backend a <c>Storage:Backend</c> value names (case-insensitive; unset means Local).</summary>
    internal static StorageBackendKind Parse(string? value) => value switch
    {
        null or "" => StorageBackendKind.Local,
        _ when value.Equals(nameof(StorageBackendKind.Local), StringComparison.OrdinalIgnoreCase) => StorageBackendKind.Local,
        _ when value.Equals(nameof(StorageBackendKind.S3), StringComparison.OrdinalIgnoreCase) => StorageBackendKind.S3,
        _ => throw new InvalidOperationException($"{Key} must be Local (the default) or S3, not '{value}'."),
    };

    /// <summary>
    /// Replicas on one bucket are one server to their clients: a link one of them signs must open on
    /// every other, so the signing key comes from configuration, never from one process's memory.
    /// </summary>
    private sealed class SharedSigningKey : IValidateOptions<AuthOptions>
    {
        public ValidateOptionsResult Validate(string? name, AuthOptions options) =>
            string.IsNullOrEmpty(options.SigningKey)
                ? ValidateOptionsResult.Fail("Auth:SigningKey must be set (32+ characters) when Storage:Backend is S3: every replica on the bucket must accept the links the others sign.")
                : ValidateOptionsResult.Success;
    }
}
