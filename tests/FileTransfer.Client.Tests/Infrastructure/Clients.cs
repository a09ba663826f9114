using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Client.Tests.Infrastructure;

/// <summary>Library clients for a real server: REST on its HTTP/1.1 endpoint, gRPC on its cleartext HTTP/2 one.</summary>
public static class Clients
{
    public static Uri AddressFor(KestrelFactory server, FileTransferProtocol protocol) =>
        server.AddressOf(protocol == FileTransferProtocol.Grpc ? HttpProtocols.Http2 : HttpProtocols.Http1);

    public static FileTransferClient For(KestrelFactory server, FileTransferProtocol protocol, Action<FileTransferClientOptions>? configure = null) =>
        For(AddressFor(server, protocol), protocol, configure);

    public static FileTransferClient For(Uri address, FileTransferProtocol protocol, Action<FileTransferClientOptions>? configure = null)
    {
        var options = new FileTransferClientOptions
        {
            Protocol = protocol,
            ServerAddress = address,
            ApiKey = FileTransferFactory.TestKey,
            RetryDelay = TimeSpan.FromMilliseconds(50),
        };
        configure?.Invoke(options);
        return new FileTransferClient(options);
    }
}

/// <summary>Every report, in order; readable from another thread while the transfer runs.</summary>
public sealed class RecordingProgress : IProgress<TransferProgress>
{
    private readonly List<TransferProgress> _reports = [];
    private long _bytesDone;

    /// <summary>A copy of the reports so far.</summary>
    public List<TransferProgress> Reports
    {
        get
        {
            lock (_reports)
            {
                return [.. _reports];
            }
        }
    }

    /// <summary>BytesDone of the latest report.</summary>
    public long BytesDone => Interlocked.Read(ref _bytesDone);

    public void Report(TransferProgress value)
    {
        lock (_reports)
        {
            _reports.Add(value);
        }

        Interlocked.Exchange(ref _bytesDone, value.BytesDone);
    }
}
