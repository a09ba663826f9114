using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging.Console;

namespace FileTransfer.Server.Diagnostics;

/// <summary>Puts <see cref="BatchedConsoleLoggerProvider"/> where the host's defaults put the framework's console logger.</summary>
internal static class ConsoleLogging
{
    /// <summary>
    /// Replaces the registered <see cref="ConsoleLoggerProvider"/>, keeping its options and formatters.
    /// A host that removed console logging (<c>ClearProviders</c>) does not get it back.
    /// </summary>
    public static IServiceCollection AddBatchedConsoleLogging(this IServiceCollection services)
    {
        var console = services.Where(d => d.ServiceType == typeof(ILoggerProvider) && d.ImplementationType == typeof(ConsoleLoggerProvider)).ToList();
        if (console.Count == 0)
        {
            return services;
        }

        foreach (var descriptor in console)
        {
            services.Remove(descriptor);
        }

        services.TryAddSingleton<ConsoleFormatters>();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<ILoggerProvider, BatchedConsoleLoggerProvider>());
        return services;
    }
}
