using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Server.Storage;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// The configured API keys, held only as SHA-256 hashes and compared in constant time, so that
/// neither a timing side channel nor a memory dump of the lookup gives a key away.
/// </summary>
internal sealed class ApiKeyStore
{
    private readonly List<(byte[] Hash, string Id, string[] Scopes)> _keys = [];

    public ApiKeyStore(IOptions<AuthOptions> options, IHostEnvironment environment, StorageRoot root)
    {
        foreach (var key in options.Value.ApiKeys)
        {
            Add(key.Key, [.. key.Scopes.Distinct(StringComparer.Ordinal)]);
        }

        // Only here, only in Development: no other environment ever reads or writes the key file.
        if (_keys.Count == 0 && options.Value.GenerateDevelopmentKey && environment.IsDevelopment())
        {
            DevelopmentKey = DevelopmentKeyFile.LoadOrCreate(options.Value.DevelopmentKeyFolder ?? DevelopmentKeyFile.DefaultFolder(), root.FullPath);
            Add(DevelopmentKey.Key, [.. Scopes.All]);
        }
    }

    /// <summary>The development key and where it is stored, or null when keys are configured or not in Development.</summary>
    public DevelopmentKey? DevelopmentKey { get; }

    public int Count => _keys.Count;

    /// <summary>The identity <paramref name="presented"/> stands for, or null when it is no configured key.</summary>
    public ClaimsIdentity? Find(string presented, string authenticationType)
    {
        var hash = Hash(presented);
        (byte[] Hash, string Id, string[] Scopes)? match = null;

        // Every entry is compared, whatever matched before: the time taken does not depend on
        // which key (if any) matched, and comparing fixed-length hashes hides the key length.
        foreach (var entry in _keys)
        {
            if (CryptographicOperations.FixedTimeEquals(hash, entry.Hash))
            {
                match = entry;
            }
        }

        if (match is not { } found)
        {
            return null;
        }

        var identity = new ClaimsIdentity(authenticationType, ClaimTypes.Name, ClaimTypes.Role);
        identity.AddClaim(new Claim(ClaimTypes.Name, "key:" + found.Id));
        identity.AddClaim(new Claim(FileTransferClaims.KeyId, found.Id));
        identity.AddClaims(found.Scopes.Select(scope => new Claim(FileTransferClaims.Scope, scope)));
        return identity;
    }

    private void Add(string key, string[] scopes)
    {
        var hash = Hash(key);
        _keys.Add((hash, Convert.ToHexStringLower(hash)[..12], scopes));
    }

    private static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));
}
