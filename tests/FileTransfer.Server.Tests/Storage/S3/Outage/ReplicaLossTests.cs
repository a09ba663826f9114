using System.Net;
using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Storage.S3.Outage;

/// <summary>
/// A replica dies in the middle of a session's PATCH (it holds the session's lease; as far as the
/// store is concerned it stops: its gateway is killed, its client's request cut): the other replica
/// reports the durable offset, refuses a second writer while the dead one's lease lives, and continues
/// the session once the lease lapses, to a file with every byte.
/// </summary>
public sealed class ReplicaLossTests(OutageServer fixture) : IClassFixture<OutageServer>
{
    [Fact]
    public async Task The_Other_Replica_Continues_A_Session_From_Its_Durable_Offset_Once_The_Dead_Replicas_Lease_Lapses()
    {
        const string Name = "replica/lost.bin";
        var source = TestData.RandomBytes(3 * 1024 * 1024);
        await using var gateway = new GatewayProxy(fixture.Rgw.ServiceUrl);
        using var dying = fixture.Replica(gateway.Address);
        dying.With("Uploads:CheckpointBytes", (256 * 1024).ToString(System.Globalization.CultureInfo.InvariantCulture));
        using var toDying = KestrelFactory.ClientFor(dying.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        using var toOther = KestrelFactory.ClientFor(fixture.Http1, HttpVersion.Version11);
        var location = await Tus.CreateAsync(toDying, Name, source.Length);
        var onOther = new Uri(fixture.Http1, location.PathAndQuery);

        // A PATCH that sends 2 MiB and hangs: checkpoints every 256 KiB make some of it durable.
        using var cut = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        var never = new TaskCompletionSource<bool>();
        var patch = Tus.Patch(location, 0, []);
        patch.Content = new PausedContent(source, 2 * 1024 * 1024, never.Task);
        patch.Content.Headers.ContentType = new("application/offset+octet-stream");
        var sent = toDying.SendAsync(patch, cut.Token);
        await OutageServer.UntilAsync(async () => await OffsetAsync(toOther, onOther) >= 1024 * 1024, TimeSpan.FromSeconds(30), "a checkpoint of the PATCH");

        // The replica dies: it never reaches the store again, and its client's connection goes.
        gateway.Kill();
        await cut.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => sent);
        var durable = await OffsetAsync(toOther, onOther);

        // The other replica goes on once the dead one's lease lapses (3 s here), from the durable offset.
        // A checkpoint the gateway had already forwarded can still land after the first HEAD, so each
        // attempt asks for the offset again, as a tus client does after a 409.
        HttpStatusCode status;
        var attempts = 0;
        do
        {
            durable = await OffsetAsync(toOther, onOther);
            using var resumed = await Tus.AppendAsync(toOther, onOther, source, (int)durable, source.Length);
            status = resumed.StatusCode;
            Assert.True(status is HttpStatusCode.NoContent or HttpStatusCode.Conflict, status.ToString());
            if (status == HttpStatusCode.Conflict)
            {
                await Task.Delay(250, TestTimeout.Token);
            }
        }
        while (status == HttpStatusCode.Conflict && ++attempts < 80);

        Assert.Equal(HttpStatusCode.NoContent, status);
        Assert.InRange(durable, 1024 * 1024, 2 * 1024 * 1024);
        var stored = await toOther.GetByteArrayAsync("/api/files/" + Name, TestTimeout.Token);
        Assert.Equal(SHA256.HashData(source), SHA256.HashData(stored));
    }

    private static async Task<long> OffsetAsync(HttpClient client, Uri location)
    {
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        return Tus.Offset(head);
    }
}
