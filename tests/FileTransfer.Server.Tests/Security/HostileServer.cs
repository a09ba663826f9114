using System.Net;
using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Real Kestrel (only it sees raw request targets) serving the <see cref="Sandbox"/> root.</summary>
public sealed class HostileServer : IDisposable
{
    private readonly KestrelFactory _factory = new();
    private readonly Dictionary<string, Task<bool>> _available = [];

    public HostileServer()
    {
        _factory.With("Storage:RootPath", Sandbox.RootPath)
            .With("RateLimit:PermitsPerSecond", "100000")
            .With("RateLimit:Burst", "100000");
        Address = _factory.AddressOf(HttpProtocols.Http1);
    }

    public Sandbox Sandbox { get; } = new();

    public Uri Address { get; }

    public Task<RawResponse> SendAsync(string method, string target, byte[]? body = null) =>
        RawHttp.SendAsync(Address, method, Encode(target), [("Authorization", $"Bearer {FileTransferFactory.TestKey}")], body);

    /// <summary>
    /// Whether <paramref name="method"/> on api/files/{path} exists yet: the upload and delete
    /// endpoints are built in parallel, and until they land the server answers 405.
    /// </summary>
    public Task<bool> IsServedAsync(string method)
    {
        lock (_available)
        {
            if (!_available.TryGetValue(method, out var probe))
            {
                probe = ProbeAsync(method);
                _available[method] = probe;
            }

            return probe;
        }
    }

    private async Task<bool> ProbeAsync(string method)
    {
        using var client = KestrelFactory.ClientFor(Address, HttpVersion.Version11);
        return await UploadEndpoints.IsServedAsync(client, method, name => File.Delete(Path.Combine(Sandbox.RootPath, name)));
    }

    private byte[] Encode(string target) =>
        Encoding.UTF8.GetBytes("/api/files/" + target
            .Replace("{sandbox}", Sandbox.Path, StringComparison.Ordinal)
            .Replace("<NUL>", "\0", StringComparison.Ordinal)
            .Replace("<SP>", " ", StringComparison.Ordinal));

    public void Dispose()
    {
        _factory.Dispose();
        Sandbox.Dispose();
    }
}
