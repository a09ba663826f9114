using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Diagnostics;

/// <summary>
/// <c>GET /debug/runtime</c>: the process's own memory and GC figures, so that a benchmark can
/// measure the server's allocations and peak memory during a transfer instead of guessing them.
/// Mapped only when <see cref="RuntimeEndpointOptions.EnableRuntimeEndpoint"/> is set.
/// </summary>
internal static class RuntimeEndpoint
{
    public const string Path = "/debug/runtime";

    public static void AddRuntimeEndpoint(this IServiceCollection services)
    {
        services.AddOptions<RuntimeEndpointOptions>()
            .BindConfiguration(RuntimeEndpointOptions.SectionName)
            .ValidateOnStart();
        services.ConfigureHttpJsonOptions(options => options.SerializerOptions.TypeInfoResolverChain.Insert(0, RuntimeJson.Default));
    }

    public static void MapRuntimeEndpoint(this WebApplication app)
    {
        if (!app.Services.GetRequiredService<IOptions<RuntimeEndpointOptions>>().Value.EnableRuntimeEndpoint)
        {
            return;
        }

        app.MapGet(Path, () => TypedResults.Ok(RuntimeSnapshot.Capture()))
            .ExcludeFromDescription();
    }
}
