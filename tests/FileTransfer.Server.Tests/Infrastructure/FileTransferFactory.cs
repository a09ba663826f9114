using System.Net.Http.Headers;
using FileTransfer.Server.Tests.Diagnostics;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The real application on the in-memory test server, over its own temporary storage root.
/// Settings go through configuration exactly as an operator would set them, including one API
/// key with every scope (<see cref="TestKey"/>) that the clients it creates send.
/// </summary>
public class FileTransferFactory : WebApplicationFactory<Program>
{
    /// <summary>The API key every factory configures with the read, write and delete scopes.</summary>
    public const string TestKey = "test-key-with-every-scope-0123456789";

    private readonly Dictionary<string, string?> _settings = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<ILoggerProvider> _loggers = [];
    private readonly List<Action<IServiceCollection>> _services = [];
    // The generic host's errors: it logs why it did not start before it throws (see CreateHost).
    private readonly LogCapture _hostErrors = new((category, level) => level >= LogLevel.Error && category.StartsWith("Microsoft.Extensions.Hosting", StringComparison.Ordinal));

    public FileTransferFactory()
    {
        _settings["Storage:RootPath"] = Storage.RootPath;
        _settings["Auth:ApiKeys:0:Key"] = TestKey;
        _settings["Auth:ApiKeys:0:Scopes:0"] = "read";
        _settings["Auth:ApiKeys:0:Scopes:1"] = "write";
        _settings["Auth:ApiKeys:0:Scopes:2"] = "delete";

        // Server logs would drown the test output; failures show through assertions.
        _settings["Logging:LogLevel:Default"] = "Warning";
    }

    public TempStorage Storage { get; } = new();

    /// <summary>Sets a configuration value before the host starts (e.g. "Storage:MaxFileSizeBytes").</summary>
    public FileTransferFactory With(string key, string? value)
    {
        _settings[key] = value;
        return this;
    }

    /// <summary>Removes every setting under <paramref name="prefix"/> (e.g. "Auth:ApiKeys" for a server without keys).</summary>
    public FileTransferFactory Without(string prefix)
    {
        foreach (var key in _settings.Keys.Where(k => k.StartsWith(prefix, StringComparison.OrdinalIgnoreCase)).ToList())
        {
            _settings.Remove(key);
        }

        return this;
    }

    /// <summary>Sends the host's logs to <paramref name="provider"/> as well (e.g. a LogCapture), before the host starts.</summary>
    public FileTransferFactory WithLogs(ILoggerProvider provider)
    {
        _loggers.Add(provider);
        return this;
    }

    /// <summary>Adds services before the host starts (e.g. an <c>IStartupFilter</c> standing in for a proxy in front of the app).</summary>
    public FileTransferFactory WithServices(Action<IServiceCollection> configure)
    {
        _services.Add(configure);
        return this;
    }

    /// <summary>Clients from <c>CreateClient</c> authenticate with <see cref="TestKey"/>.</summary>
    protected override void ConfigureClient(HttpClient client)
    {
        base.ConfigureClient(client);
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", TestKey);
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureLogging(logging =>
        {
            logging.AddProvider(_hostErrors);
            _loggers.ForEach(provider => logging.AddProvider(provider));
        });
        builder.ConfigureServices(services => _services.ForEach(configure => configure(services)));
    }

    /// <summary>
    /// The host, started; a host that fails to start throws the reason it logged. WebApplicationFactory's
    /// deferred host asks the application's services for its lifetime only after the application's own
    /// <c>Run</c> began, which, when the start fails (an invalid setting), disposes those services: when
    /// it is first, the factory throws <see cref="ObjectDisposedException"/> instead of the reason.
    /// </summary>
    protected override IHost CreateHost(IHostBuilder builder)
    {
        try
        {
            return base.CreateHost(builder);
        }
        catch (ObjectDisposedException disposed) when (StartFailure() is { } reason)
        {
            throw new InvalidOperationException($"The host did not start: {reason.Message}", new AggregateException(reason, disposed));
        }
    }

    // The first error the generic host logged with its exception: why it did not start.
    private Exception? StartFailure() => _hostErrors.Entries.FirstOrDefault(e => e.Exception is not null)?.Exception;

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        if (disposing)
        {
            Storage.Dispose();
        }
    }
}
