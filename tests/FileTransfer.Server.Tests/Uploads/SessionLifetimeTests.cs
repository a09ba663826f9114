using System.Net;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>Sessions end: expired ones are refused and swept away with their bytes; a full disk mid-append keeps what was durable.</summary>
public sealed class SessionLifetimeTests : IDisposable
{
    private readonly FileTransferFactory _factory = new FileTransferFactory()
        .With("Uploads:ExpirySeconds", "1")
        .With("Uploads:SweepIntervalSeconds", "1");

    [Fact]
    public async Task An_Expired_Session_Is_Gone_With_Its_Bytes()
    {
        var source = TestData.RandomBytes(300_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "expiry/gone.bin", source.Length);
        using var part = await Tus.AppendAsync(client, location, source, 0, 280_000);
        Assert.Contains(_factory.Storage.Files(), f => f.StartsWith("expiry/", StringComparison.Ordinal));

        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (_factory.Storage.Files().Any(f => f.StartsWith("expiry/", StringComparison.Ordinal) || f.StartsWith(".ft-uploads/", StringComparison.Ordinal) && f.EndsWith(".json", StringComparison.Ordinal)) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100, TestTimeout.Token);
        }

        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        using var patch = await Tus.AppendAsync(client, location, source, 280_000, 300_000);
        Assert.True(head.StatusCode is HttpStatusCode.NotFound or HttpStatusCode.Gone, $"HEAD answered {head.StatusCode}");
        await Problems.AssertAsync(patch, head.StatusCode);
        Assert.DoesNotContain(_factory.Storage.Files(), f => f.StartsWith("expiry/", StringComparison.Ordinal));
        Assert.DoesNotContain("expiry/gone.bin", _factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task A_Session_Past_Its_Expiry_Is_410_Before_The_Sweeper_Comes()
    {
        using var factory = new FileTransferFactory().With("Uploads:ExpirySeconds", "1").With("Uploads:SweepIntervalSeconds", "3600");
        using var client = factory.CreateClient();
        var location = await Tus.CreateAsync(client, "expiry/late.bin", 10);
        await Task.Delay(1500, TestTimeout.Token);

        using var patch = await Tus.AppendAsync(client, location, new byte[10], 0, 10);

        Assert.Equal("UPLOAD_EXPIRED", (await Problems.AssertAsync(patch, HttpStatusCode.Gone)).GetProperty("reason").GetString());
        Assert.DoesNotContain("expiry/late.bin", factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task A_Disk_Filling_Up_Mid_Append_Is_507_Keeps_What_Was_Durable_And_Loses_The_Previous_Version_Never()
    {
        using var factory = new FileTransferFactory();
        using var volume = new SmallVolume(factory.Storage, "small-volume");
        factory.Storage.Write("small-volume/existing.bin", [1, 2, 3]);
        var source = TestData.RandomBytes(3_000_000);
        using var client = factory.CreateClient();
        // A declared length that does not fit is refused at creation (507 before any byte); a deferred one is found out mid-append.
        using var create = Tus.Create(length: null, ("filename", "existing.bin"), ("folder", "small-volume"));
        using var created = await client.SendAsync(create, TestTimeout.Token);
        Assert.True(created.StatusCode == HttpStatusCode.Created, await created.Content.ReadAsStringAsync(TestTimeout.Token));
        var location = new Uri(client.BaseAddress!, created.Headers.Location!);

        using var patch = await Tus.AppendAsync(client, location, source, 0, source.Length);

        var problem = await Problems.AssertAsync(patch, HttpStatusCode.InsufficientStorage);
        Assert.Equal("STORAGE_FULL", problem.GetProperty("reason").GetString());
        Assert.DoesNotContain(factory.Storage.RootPath, problem.ToString(), StringComparison.Ordinal);
        Assert.Equal([1, 2, 3], await File.ReadAllBytesAsync(Path.Combine(volume.Path, "existing.bin"), TestTimeout.Token));
        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        var durable = Tus.Offset(head);
        Assert.InRange(durable, 0, 1024 * 1024);

        // The space comes back (the client cancels): nothing remains of the upload on the volume.
        using var deleted = await client.SendAsync(Tus.Delete(location), TestTimeout.Token);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        Assert.Equal(["existing.bin"], Directory.GetFiles(volume.Path).Select(Path.GetFileName));
    }

    public void Dispose() => _factory.Dispose();
}
