namespace FileTransfer.Server.Hosting;

/// <summary>
/// Start-up work the framework registers for features the server does not use. Authentication
/// registers ASP.NET Core Data Protection (for cookies and antiforgery tokens), whose hosted service
/// loads or creates its XML key ring at start: XML parsing, cryptography and their assemblies, about
/// 5 MB of resident memory (docs/performance-notes.md). Nothing here protects data with it (API keys
/// and signed links have their own keys), so the key ring is left to load on first use, which never comes.
/// </summary>
internal static class UnusedStartupWork
{
    private const string DataProtectionStartup = "Microsoft.AspNetCore.DataProtection.Internal.DataProtectionHostedService";

    public static IServiceCollection RemoveUnusedStartupWork(this IServiceCollection services)
    {
        foreach (var descriptor in services.Where(d => d.ServiceType == typeof(IHostedService) && d.ImplementationType?.FullName == DataProtectionStartup).ToList())
        {
            services.Remove(descriptor);
        }

        return services;
    }
}
