using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// The product's Kestrel defaults for moving large files, each one measured (benchmarks/RESULTS.md).
/// Configuration under <c>Kestrel:Limits</c> is bound after them, so an operator can still override any.
/// </summary>
internal sealed class KestrelTuning(IConfiguration configuration) : IConfigureOptions<KestrelServerOptions>
{
    public void Configure(KestrelServerOptions options)
    {
        configuration.GetSection("Kestrel:Limits").Bind(options.Limits);
    }
}
