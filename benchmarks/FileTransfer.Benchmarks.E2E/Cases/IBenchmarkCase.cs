namespace FileTransfer.Benchmarks.E2E.Cases;

/// <summary>Servers a case needs beyond ours and the two nginx, started once for the whole run.</summary>
[Flags]
internal enum CasePeers
{
    None = 0,

    /// <summary>The published "gRPC naive" and "gRPC optimized" services.</summary>
    PublishedGrpc = 1,

    /// <summary>The Python grpcio reference server.</summary>
    PythonGrpc = 2,

    /// <summary>kestrel-bare, when <c>--kestrel-bare</c> names a build.</summary>
    KestrelBare = 4,
}

/// <summary>
/// One group of rows, selected with <c>--cases NAME</c>. To add a case, add a class in Cases/ that
/// implements this (an S3 backend's rows, say): <see cref="CaseCatalog"/> finds it, <c>--help</c>
/// lists it, and the full run includes it, with no list to edit elsewhere.
/// </summary>
internal interface IBenchmarkCase
{
    /// <summary>The name <c>--cases</c> takes.</summary>
    string Name { get; }

    /// <summary>Where it runs and appears in the report, lowest first.</summary>
    int Order { get; }

    /// <summary>One line for <c>--help</c>.</summary>
    string Description { get; }

    CasePeers Peers => CasePeers.None;

    /// <summary>Plans its rows on <see cref="BenchContext.Measurer"/> and runs them (<see cref="Measurer.RunPlannedAsync"/>).</summary>
    Task RunAsync(BenchContext context);
}

/// <summary>Every <see cref="IBenchmarkCase"/> in this assembly, in <see cref="IBenchmarkCase.Order"/>.</summary>
internal static class CaseCatalog
{
    public static IReadOnlyList<IBenchmarkCase> All { get; } =
    [
        .. typeof(IBenchmarkCase).Assembly.GetTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false } && typeof(IBenchmarkCase).IsAssignableFrom(t))
            .Select(t => (IBenchmarkCase)Activator.CreateInstance(t)!)
            .OrderBy(c => c.Order)
            .ThenBy(c => c.Name, StringComparer.Ordinal),
    ];
}
