using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The real application on the in-memory test server, over its own temporary storage root.
/// Settings go through configuration exactly as an operator would set them.
/// </summary>
public class FileTransferFactory : WebApplicationFactory<Program>
{
    private readonly Dictionary<string, string?> _settings = new(StringComparer.OrdinalIgnoreCase);

    public FileTransferFactory()
    {
        _settings["Storage:RootPath"] = Storage.RootPath;

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

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        foreach (var (key, value) in _settings)
        {
            builder.UseSetting(key, value);
        }
    }

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing);
        if (disposing)
        {
            Storage.Dispose();
        }
    }
}
