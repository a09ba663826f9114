namespace FileTransfer.Server.Diagnostics;

/// <summary>Switches for the runtime diagnostics endpoint, bound from the <c>Diagnostics</c> configuration section.</summary>
public sealed class RuntimeEndpointOptions
{
    public const string SectionName = "Diagnostics";

    /// <summary>
    /// Maps <c>GET /debug/runtime</c> (allocated bytes, working set, GC counts, CPU time). Off by
    /// default: it is for benchmarks and operators on a trusted network, not for the public.
    /// </summary>
    public bool EnableRuntimeEndpoint { get; set; }
}
