using System.Text;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Security;

/// <summary>Real Kestrel (only it sees raw request targets) serving the <see cref="Sandbox"/> root.</summary>
public sealed class HostileServer : IDisposable
{
    private readonly KestrelFactory _factory = new();

    public HostileServer()
    {
        _factory.With("Storage:RootPath", Sandbox.RootPath)
            .With("RateLimit:PermitsPerSecond", "100000")
            .With("RateLimit:Burst", "100000");
        Address = _factory.AddressOf(HttpProtocols.Http1);
        Grpc = GrpcClients.For(_factory);
    }

    /// <summary>A FileService client on the same server (real Kestrel, cleartext HTTP/2).</summary>
    public FileTransfer.Protos.V1.FileService.FileServiceClient Grpc { get; }

    public Sandbox Sandbox { get; } = new();

    public Uri Address { get; }

    public Task<RawResponse> SendAsync(string method, string target, byte[]? body = null) =>
        RawHttp.SendAsync(Address, method, Encode(target), [("Authorization", $"Bearer {FileTransferFactory.TestKey}")], body);

    /// <summary>The table's target as text: the sandbox path, a real NUL and a real space put in.</summary>
    public string Raw(string target) =>
        target.Replace("{sandbox}", Sandbox.Path, StringComparison.Ordinal)
            .Replace("<NUL>", "\0", StringComparison.Ordinal)
            .Replace("<SP>", " ", StringComparison.Ordinal);

    private byte[] Encode(string target) => Encoding.UTF8.GetBytes("/api/files/" + Raw(target));

    public void Dispose()
    {
        _factory.Dispose();
        Sandbox.Dispose();
    }
}
