using System.Net.Http.Headers;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// The application with one key per scope besides the full test key, and a controller of its
/// own (<see cref="ScopeProbeEndpoints"/>) that the server has never heard of: what the scope
/// convention does to it, it does to any controller added later.
/// </summary>
public class SecurityFactory : FileTransferFactory
{
    public const string ReadKey = "read-only-key-0123456789";
    public const string WriteKey = "write-only-key-0123456789";
    public const string DeleteKey = "delete-only-key-0123456789";

    public SecurityFactory()
    {
        AddKey(1, ReadKey, "read");
        AddKey(2, WriteKey, "write");
        AddKey(3, DeleteKey, "delete");
        With("Auth:SigningKey", "signing-key-for-tests-0123456789abcdef");
    }

    /// <summary>A client sending <paramref name="key"/> (none when null), as Bearer or as X-Api-Key.</summary>
    public HttpClient ClientWith(string? key, bool asApiKeyHeader = false)
    {
        var client = CreateClient();
        client.DefaultRequestHeaders.Authorization = null;
        if (key is not null && asApiKeyHeader)
        {
            client.DefaultRequestHeaders.Add("X-Api-Key", key);
        }
        else if (key is not null)
        {
            client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", key);
        }

        return client;
    }

    public SecurityFactory AddKey(int index, string key, params string[] scopes)
    {
        With($"Auth:ApiKeys:{index}:Key", key);
        for (var i = 0; i < scopes.Length; i++)
        {
            With($"Auth:ApiKeys:{index}:Scopes:{i}", scopes[i]);
        }

        return this;
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        base.ConfigureWebHost(builder);
        builder.ConfigureTestServices(services => services.AddSingleton<IStartupFilter, ScopeProbeEndpoints>());
    }
}
