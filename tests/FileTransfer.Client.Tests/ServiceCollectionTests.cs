using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Client.Tests;

/// <summary><c>services.AddFileTransferClient(...)</c>: IHttpClientFactory for REST, Grpc.Net.ClientFactory for gRPC.</summary>
public sealed class ServiceCollectionTests : IDisposable
{
    private readonly KestrelFactory _server = new();

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Registered_Client_Moves_Files_Over_The_Configured_Protocol(FileTransferProtocol protocol)
    {
        var address = Clients.AddressFor(_server, protocol);
        var services = new ServiceCollection();
        services.AddFileTransferClient(options =>
        {
            options.Protocol = protocol;
            options.ServerAddress = address;
            options.ApiKey = FileTransferFactory.TestKey;
        });
        await using var provider = services.BuildServiceProvider();
        var source = RandomNumberGenerator.GetBytes(100_000);

        using var client = provider.GetRequiredService<FileTransferClient>();
        await client.UploadAsync("di/a.bin", new MemoryStream(source), cancellationToken: TestTimeout.Token);
        using var copy = new MemoryStream();
        await client.DownloadAsync("di/a.bin", copy, cancellationToken: TestTimeout.Token);

        Assert.Equal(protocol, client.Protocol);
        Assert.Equal(address, client.ServerAddress);
        Assert.Equal(source, copy.ToArray());
    }

    [Fact]
    public async Task Out_Of_Range_Options_Fail_When_The_Client_Is_Created()
    {
        var services = new ServiceCollection();
        services.AddFileTransferClient(options => options.UploadChunkSize = 5 * 1024 * 1024);
        await using var provider = services.BuildServiceProvider();

        Assert.Throws<OptionsValidationException>(provider.GetRequiredService<FileTransferClient>);
    }

    public void Dispose() => _server.Dispose();
}
