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
/// process runs, so everything a request with a key needs (its <see cref="Caller"/>, principal,
/// ticket, result and the features that carry them) is built here once and the same instances are
/// handed to every request that presents the key: a lookup allocates nothing. The identity and
/// principal are <see cref="ReadOnlyClaimsIdentity"/> / <see cref="ReadOnlyClaimsPrincipal"/>, so
/// code that tried to add a claim to the shared principal would fail loudly instead of granting
/// it to every later request with the same key.
/// </remarks>
internal sealed class ApiKeyStore
{
    public const string AuthenticationType = "ApiKey";

    // Keys up to this many UTF-8 bytes are hashed from the stack; longer ones (rare) from the heap.
    private const int StackKeyBytes = 512;

    // Hashed on the first lookup, not at start: hashing loads OpenSSL (about 4 MB resident), which a
    // server that has not yet seen a key need not hold (docs/performance-notes.md, the idle floor).
    private readonly Lazy<List<ApiKeyEntry>> _keys;

    public ApiKeyStore(IOptions<AuthOptions> options, IHostEnvironment environment, IStorageBackend storage)
    {
        var configured = options.Value.ApiKeys;

        // Only here, only in Development: no other environment ever reads or writes the key file.
        if (configured.Count == 0 && options.Value.GenerateDevelopmentKey && environment.IsDevelopment())
        {
            DevelopmentKey = DevelopmentKeyFile.LoadOrCreate(options.Value.DevelopmentKeyFolder ?? DevelopmentKeyFile.DefaultFolder(), storage);
        }

        Count = configured.Count + (DevelopmentKey is null ? 0 : 1);
        _keys = new(() =>
        {
            List<ApiKeyEntry> keys = [.. configured.Select(key => Entry(key.Key, [.. key.Scopes.Distinct(StringComparer.Ordinal)], key.Folders, key.Name))];
            if (DevelopmentKey is { } development)
            {
                keys.Add(Entry(development.Key, [.. Scopes.All], folders: null));
            }

            return keys;
        });
    }

    /// <summary>The development key and where it is stored, or null when keys are configured or not in Development.</summary>
    public DevelopmentKey? DevelopmentKey { get; }

    public int Count { get; }

    /// <summary>
    /// The successful authentication <paramref name="presented"/> stands for (the same instance for
    /// every request with that key), or null when it is no configured key.
    /// </summary>
    public Task<AuthenticateResult>? Find(string presented) => Lookup(presented)?.Result;

    /// <summary>The key <paramref name="presented"/> is, with everything built for it, or null. Allocates nothing for a key of up to 512 bytes.</summary>
    public ApiKeyEntry? Lookup(ReadOnlySpan<char> presented)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        var length = Encoding.UTF8.GetMaxByteCount(presented.Length);
        Span<byte> utf8 = length <= StackKeyBytes ? stackalloc byte[StackKeyBytes] : new byte[length];
        SHA256.HashData(utf8[..Encoding.UTF8.GetBytes(presented, utf8)], hash);
        ApiKeyEntry? match = null;

        // Every entry is compared, whatever matched before: the time taken does not depend on
        // which key (if any) matched, and comparing fixed-length hashes hides the key length.
        foreach (var entry in _keys.Value)
        {
            if (CryptographicOperations.FixedTimeEquals(hash, entry.Hash))
            {
                match = entry;
            }
        }

        return match;
    }

    private static ApiKeyEntry Entry(string key, string[] scopes, IReadOnlyList<string>? folders, string? name = null)
    {
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(key)); // the key itself is never stored
        var id = name ?? Convert.ToHexStringLower(hash)[..12];
        Claim[] claims =
        [
            new(ClaimTypes.Name, "key:" + id),
            new(FileTransferClaims.KeyId, id),
            .. scopes.Select(scope => new Claim(FileTransferClaims.Scope, scope)),
        ];
        var caller = Caller.ForKey(id, scopes, folders);
        var principal = new ReadOnlyClaimsPrincipal(new ReadOnlyClaimsIdentity(claims, AuthenticationType, ClaimTypes.Name, ClaimTypes.Role), caller);
        var ticket = new AuthenticationTicket(principal, FileTransferAuthenticationHandler.SchemeName);
        return new ApiKeyEntry(hash, principal, AuthenticateResult.Success(ticket));
    }
}
