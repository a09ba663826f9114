using FileTransfer.Server.Hosting;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Tests.Hosting;

/// <summary>The product's transport defaults for large transfers, and that configuration still wins.</summary>
public sealed class KestrelTuningTests
{
    [Fact]
    public void Socket_Write_Buffer_Defaults_To_One_MiB()
    {
        using var factory = new FileTransferFactory();

        var options = factory.Services.GetRequiredService<IOptions<SocketTransportOptions>>().Value;

        Assert.Equal(1024 * 1024, options.MaxWriteBufferSize);
    }

    [Fact]
    public void Socket_Write_Buffer_Follows_Configuration()
    {
        using var factory = new FileTransferFactory().With("Kestrel:Sockets:MaxWriteBufferSize", "65536");

        var options = factory.Services.GetRequiredService<IOptions<SocketTransportOptions>>().Value;

        Assert.Equal(65536, options.MaxWriteBufferSize);
    }

    [Fact]
    public void Slow_Readers_Get_30_Seconds_Of_Grace()
    {
        using var factory = new FileTransferFactory();

        var rate = factory.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.MinResponseDataRate;

        Assert.NotNull(rate);
        Assert.Equal(1024, rate.BytesPerSecond);
        Assert.Equal(TimeSpan.FromSeconds(30), rate.GracePeriod);
    }

    [Fact]
    public void Kestrel_Limits_Follow_Configuration()
    {
        using var factory = new FileTransferFactory().With("Kestrel:Limits:MaxResponseBufferSize", "131072");

        var options = factory.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value;

        Assert.Equal(131072, options.Limits.MaxResponseBufferSize);
    }

    [Fact]
    public void Http2_Receive_Windows_Default_To_The_Measured_Sizes()
    {
        using var factory = new FileTransferFactory();

        var http2 = factory.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.Http2;

        Assert.Equal(KestrelTuning.Http2StreamWindowBytes, http2.InitialStreamWindowSize);
        Assert.Equal(KestrelTuning.Http2ConnectionWindowBytes, http2.InitialConnectionWindowSize);
        Assert.NotEqual(new Http2Limits().InitialStreamWindowSize, http2.InitialStreamWindowSize);
        Assert.True(http2.InitialConnectionWindowSize >= http2.InitialStreamWindowSize);
    }

    [Fact]
    public void Http2_Receive_Windows_Follow_Configuration()
    {
        using var factory = new FileTransferFactory()
            .With("Kestrel:Limits:Http2:InitialStreamWindowSize", "786432")
            .With("Kestrel:Limits:Http2:InitialConnectionWindowSize", "2097152");

        var http2 = factory.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.Http2;

        Assert.Equal(786432, http2.InitialStreamWindowSize);
        Assert.Equal(2097152, http2.InitialConnectionWindowSize);
    }

    [Theory]
    [InlineData(null, 32 * 1024)]
    [InlineData("4096", 4096)]
    public void Connection_Memory_Comes_From_The_Transfer_Pool_With_The_Configured_Block_Size(string? configured, int expected)
    {
        using var factory = new FileTransferFactory();
        if (configured is not null)
        {
            factory.With("Transfer:MemoryPoolBlockBytes", configured);
        }

        using var pool = factory.Services.GetRequiredService<IMemoryPoolFactory<byte>>().Create();

        Assert.IsType<TransferMemoryPool>(pool);
        Assert.Equal(expected, pool.MaxBufferSize);
    }

    [Fact]
    public void Every_Endpoint_And_Queue_Shares_One_Pool_That_Outlives_Their_Disposal()
    {
        using var factory = new FileTransferFactory();
        var pools = factory.Services.GetRequiredService<IMemoryPoolFactory<byte>>();

        var first = pools.Create();
        var second = pools.Create();
        var block = first.Rent();
        var memory = block.Memory;
        first.Dispose();
        block.Dispose();

        // A stopped endpoint disposes its pool; the others still rent from it, and returned blocks are still reused.
        Assert.Same(first, second);
        using var again = second.Rent();
        Assert.Equal(memory, again.Memory);
    }

    [Fact]
    public void Pool_Reuses_Returned_Blocks_And_Refuses_Larger_Requests()
    {
        using var pool = new TransferMemoryPool(8192);

        var first = pool.Rent();
        Assert.Equal(8192, first.Memory.Length);
        first.Memory.Span.Fill(7);
        first.Dispose();
        using var second = pool.Rent(100);

        Assert.Equal(first.Memory, second.Memory);
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(8193));
    }
}
