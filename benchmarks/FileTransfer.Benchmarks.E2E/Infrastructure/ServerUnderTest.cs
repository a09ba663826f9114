using System.Diagnostics;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>One reading of a server process: cumulative managed allocations (.NET servers only), peak memory, CPU.</summary>
internal sealed record ServerReading(long? AllocatedBytes, long PeakWorkingSetBytes, double CpuMilliseconds);

/// <summary>
/// A server on loopback. The HTTP servers serve the same files under <c>/api/files/</c> on an HTTP/1.1
/// and an h2c port and accept <c>PUT /api/files/NAME</c>, so that every client runs unchanged against
/// each; the gRPC-only servers have an h2c port alone.
/// </summary>
internal abstract class ServerUnderTest : IAsyncDisposable
{
    protected ServerUnderTest(string name, string rootPath)
    {
        Name = name;
        RootPath = rootPath;
    }

    public string Name { get; }

    /// <summary>The folder the server serves; files are hard-linked in, uploads land here.</summary>
    public string RootPath { get; }

    public Uri Http1 { get; protected set; } = null!;

    public Uri Http2 { get; protected set; } = null!;

    /// <summary>How the server was started and configured, as the report's peers/ folder keeps it.</summary>
    public string Configuration { get; protected set; } = "";

    /// <summary>File name of <see cref="Configuration"/> in the report's peers/ folder.</summary>
    public virtual string ConfigurationFileName => Name + ".env";

    private Process _process = null!;

    /// <summary>The server's process; setting it tracks it, so that a signal stopping the run stops it too.</summary>
    protected Process Process
    {
        get => _process;
        set
        {
            _process = value;
            SignalStop.Track(value);
        }
    }

    public Uri Base(bool http2) => http2 ? Http2 : Http1;

    public Uri FileUrl(bool http2, string name) => new(Base(http2), "api/files/" + name);

    /// <summary>Where an upload named <paramref name="name"/> ends up on disk.</summary>
    public string PathOf(string name) => Path.Combine(RootPath, name);

    public void ResetPeak() => ProcessMemory.ResetPeak(ProcessMemory.Tree(Process.Id));

    /// <summary>The resident set of the server's processes now (VmRSS).</summary>
    public long WorkingSetBytes() => ProcessMemory.CurrentBytes(ProcessMemory.Tree(Process.Id));

    /// <summary>What the server logged, for the report's logs/ folder.</summary>
    public virtual string Log() => "";

    public virtual Task<ServerReading> ReadAsync()
    {
        var tree = ProcessMemory.Tree(Process.Id);
        return Task.FromResult(new ServerReading(null, ProcessMemory.PeakBytes(tree), ProcessMemory.CpuMilliseconds(tree)));
    }

    public virtual async ValueTask DisposeAsync()
    {
        if (Process is { HasExited: false })
        {
            Process.Kill(entireProcessTree: true);
            await Process.WaitForExitAsync();
        }

        if (Process is not null)
        {
            SignalStop.Forget(Process);
            Process.Dispose();
        }
    }

    /// <summary>
    /// Whether the server accepts connections on <paramref name="port"/> within 20 s, for servers that
    /// bind the ports the harness chose and print no line that says so; false as soon as it exited.
    /// </summary>
    protected async Task<bool> ListensAsync(int port)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (true)
        {
            try
            {
                using var socket = new System.Net.Sockets.TcpClient();
                await socket.ConnectAsync(System.Net.IPAddress.Loopback, port);
                return true;
            }
            catch (System.Net.Sockets.SocketException) when (DateTime.UtcNow < deadline && !Process.HasExited)
            {
                await Task.Delay(50);
            }
            catch (System.Net.Sockets.SocketException)
            {
                return false;
            }
        }
    }

    protected static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}
