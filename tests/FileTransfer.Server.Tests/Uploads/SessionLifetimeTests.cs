using System.Net;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace FileTransfer.Server.Tests.Uploads;

/// <summary>Sessions end: expired ones are refused and swept away with their bytes; a full disk mid-append keeps what was durable.</summary>
public sealed class SessionLifetimeTests : IDisposable
{
    // The server's clock, moved by the test: expiry and the sweeper's timer run on it, not on the wall clock.
    private readonly FakeTimeProvider _time = new(DateTimeOffset.UtcNow);
    private readonly FileTransferFactory _factory;

    public SessionLifetimeTests()
    {
        _factory = new FileTransferFactory()
            .With("Uploads:ExpirySeconds", "600")
            .With("Uploads:SweepIntervalSeconds", "60")
            .WithServices(services => services.AddSingleton<TimeProvider>(_time));
    }

    [Fact]
    public async Task An_Expired_Session_Is_Gone_With_Its_Bytes()
    {
        var source = TestData.RandomBytes(300_000);
        using var client = _factory.CreateClient();
        var location = await Tus.CreateAsync(client, "expiry/gone.bin", source.Length);
        using var part = await Tus.AppendAsync(client, location, source, 0, 280_000);
        Assert.Contains(_factory.Storage.Files(), IsSessionFile);

        // Past the expiry and the next sweep: the sweeper runs on this clock's timer, asynchronously.
        _time.Advance(TimeSpan.FromSeconds(661));
        while (_factory.Storage.Files().Any(IsSessionFile))
        {
            await Task.Delay(20, TestTimeout.Token);
        }

        using var head = await client.SendAsync(Tus.Head(location), TestTimeout.Token);
        using var patch = await Tus.AppendAsync(client, location, source, 280_000, 300_000);
        Assert.Equal(HttpStatusCode.NotFound, head.StatusCode);
        await Problems.AssertAsync(patch, HttpStatusCode.NotFound);
        Assert.DoesNotContain("expiry/gone.bin", _factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task A_Session_Past_Its_Expiry_Is_410_Before_The_Sweeper_Comes()
    {
        using var factory = new FileTransferFactory()
            .With("Uploads:ExpirySeconds", "600").With("Uploads:SweepIntervalSeconds", "3600")
            .WithServices(services => services.AddSingleton<TimeProvider>(_time));
        using var client = factory.CreateClient();
        var location = await Tus.CreateAsync(client, "expiry/late.bin", 10);
        _time.Advance(TimeSpan.FromSeconds(601));

        using var patch = await Tus.AppendAsync(client, location, new byte[10], 0, 10);

        Assert.Equal("UPLOAD_EXPIRED", (await Problems.AssertAsync(patch, HttpStatusCode.Gone)).GetProperty("reason").GetString());
        Assert.DoesNotContain("expiry/late.bin", factory.Storage.VisibleFiles());
    }

    [Fact]
    public async Task A_Session_Without_A_Byte_Expires_After_Uploads_EmptyExpirySeconds_One_With_Bytes_Lives_On()
    {
        using var factory = new FileTransferFactory()
            .With("Uploads:ExpirySeconds", "86400").With("Uploads:EmptyExpirySeconds", "3600").With("Uploads:SweepIntervalSeconds", "86400")
            .WithServices(services => services.AddSingleton<TimeProvider>(_time));
        using var client = factory.CreateClient();
        var empty = await Tus.CreateAsync(client, "expiry/empty.bin", 10);
        var started = await Tus.CreateAsync(client, "expiry/started.bin", 10);
        using (await Tus.AppendAsync(client, started, new byte[10], 0, 4))
        {
        }

        _time.Advance(TimeSpan.FromSeconds(3601));

        using var emptyHead = await client.SendAsync(Tus.Head(empty), TestTimeout.Token);
        using var startedHead = await client.SendAsync(Tus.Head(started), TestTimeout.Token);
        Assert.Equal("UPLOAD_EXPIRED", (await Problems.AssertAsync(emptyHead, HttpStatusCode.Gone)).GetProperty("reason").GetString());
        Assert.Equal(HttpStatusCode.OK, startedHead.StatusCode);
        Assert.Equal(4, Tus.Offset(startedHead));
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

    private static bool IsSessionFile(string file) =>
        file.EndsWith(".part", StringComparison.Ordinal) || (file.StartsWith(".ft-uploads/", StringComparison.Ordinal) && file.EndsWith(".json", StringComparison.Ordinal));
}
