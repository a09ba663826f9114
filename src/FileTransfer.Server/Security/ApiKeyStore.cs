using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using FileTransfer.Core;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// The configured API keys, held only as SHA-256 hashes and compared in constant time, so that
/// neither a timing side channel nor a memory dump of the lookup gives a key away.
/// </summary>
/// <remarks>
/// Keys are read once (<see cref="IOptions{TOptions}"/>, not a monitor) and never change while the
/// process runs, so each key's authentication result (ticket, principal, claims) is built here once
/// and the same instance is handed to every request that presents the key: per request that saves
/// the claims, the identity, the principal, the ticket, the result and its task. The identity and
/// principal are <see cref="ReadOnlyClaimsIdentity"/> / <see cref="ReadOnlyClaimsPrincipal"/>, so
/// code that tried to add a claim to the shared principal would fail loudly instead of granting
/// it to every later request with the same key.
/// </remarks>
internal sealed class ApiKeyStore
{
    public const string AuthenticationType = "ApiKey";

    private readonly List<Entry> _keys = [];

    public ApiKeyStore(IOptions<AuthOptions> options, IHostEnvironment environment, IStorageBackend storage)
    {
        foreach (var key in options.Value.ApiKeys)
        {
            Add(key.Key, [.. key.Scopes.Distinct(StringComparer.Ordinal)]);
        }

        // Only here, only in Development: no other environment ever reads or writes the key file.
        if (_keys.Count == 0 && options.Value.GenerateDevelopmentKey && environment.IsDevelopment())
        {
            DevelopmentKey = DevelopmentKeyFile.LoadOrCreate(options.Value.DevelopmentKeyFolder ?? DevelopmentKeyFile.DefaultFolder(), storage);
            Add(DevelopmentKey.Key, [.. Scopes.All]);
        }
    }

    /// <summary>The development key and where it is stored, or null when keys are configured or not in Development.</summary>
    public DevelopmentKey? DevelopmentKey { get; }

    public int Count => _keys.Count;

    /// <summary>
    /// The successful authentication <paramref name="presented"/> stands for (the same instance for
    /// every request with that key), or null when it is no configured key.
    /// </summary>
    public Task<AuthenticateResult>? Find(string presented)
    {
        var hash = Hash(presented);
        Entry? match = null;

        // Every entry is compared, whatever matched before: the time taken does not depend on
        // which key (if any) matched, and comparing fixed-length hashes hides the key length.
        foreach (var entry in _keys)
        {
            if (CryptographicOperations.FixedTimeEquals(hash, entry.Hash))
            {
                match = entry;
            }
        }

        return match?.Result;
    }

    private void Add(string key, string[] scopes)
    {
        var hash = Hash(key);
        var id = Convert.ToHexStringLower(hash)[..12];
        Claim[] claims =
        [
            new(ClaimTypes.Name, "key:" + id),
            new(FileTransferClaims.KeyId, id),
            .. scopes.Select(scope => new Claim(FileTransferClaims.Scope, scope)),
        ];
        var principal = new ReadOnlyClaimsPrincipal(new ReadOnlyClaimsIdentity(claims, AuthenticationType, ClaimTypes.Name, ClaimTypes.Role));
        var ticket = new AuthenticationTicket(principal, FileTransferAuthenticationHandler.SchemeName);
        _keys.Add(new Entry(hash, Task.FromResult(AuthenticateResult.Success(ticket))));
    }

    // The key itself is hashed at once and never stored (a memory dump of the store shows no key).
    private static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));

    private sealed record Entry(byte[] Hash, Task<AuthenticateResult> Result);
}
