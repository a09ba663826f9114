using System.Net;
using System.Security.Cryptography;
using FileTransfer.Storage.Local;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Storage;

public sealed class DigestStoreTests
{
    [Fact]
    public async Task File_Placed_On_Disk_Is_Hashed_Once_And_Again_When_It_Changes()
    {
        using var factory = new FileTransferFactory();
        var first = factory.Storage.WriteRandom("placed.bin", 100_000);
        using var client = factory.CreateClient();

        var before = await ReprDigestAsync(client, "placed.bin");
        var second = factory.Storage.WriteRandom("placed.bin", 100_000);
        File.SetLastWriteTimeUtc(factory.Storage.PathOf("placed.bin"), DateTime.UtcNow.AddMinutes(1));
        var after = await ReprDigestAsync(client, "placed.bin");

        Assert.Equal(Format(first), before);
        Assert.Equal(Format(second), after);
        Assert.True(File.Exists(Sidecar(factory, "placed.bin")));
    }

    [Fact]
    public async Task Digest_Survives_A_Restart_Through_The_Sidecar()
    {
        using var first = new FileTransferFactory();
        using (var client = first.CreateClient())
        {
            await client.PutAsync("/api/files/kept.bin", new ByteArrayContent(TestData.RandomBytes(5000)), TestTimeout.Token);
        }

        // Tamper with the stored hash but keep size and time: a server that reads the sidecar
        // reports the tampered value, one that rehashes would not. That proves it is used.
        var sidecar = Sidecar(first, "kept.bin");
        var fields = (await File.ReadAllTextAsync(sidecar, TestTimeout.Token)).Split(' ', 2);
        var marker = new byte[32];
        marker[0] = 42;
        await File.WriteAllTextAsync(sidecar, $"{Convert.ToHexStringLower(marker)} {fields[1]}", TestTimeout.Token);
        using var restarted = new FileTransferFactory().With("Storage:RootPath", first.Storage.RootPath);
        using var again = restarted.CreateClient();

        Assert.Equal(Format(marker, hashed: true), await ReprDigestAsync(again, "kept.bin"));
    }

    public static TheoryData<string> LongNames => new()
    {
        $"long/{new string('a', 251)}.bin",
        $"long/{new string('\u00E9', 125)}x.bin",
        string.Join('/', Enumerable.Repeat(new string('d', 255), 4)),
    };

    [Theory]
    [MemberData(nameof(LongNames))]
    public async Task Digest_Of_A_Name_At_The_Length_Limits_Survives_A_Restart_Without_Hashing_Again(string name)
    {
        Assert.Equal(255, System.Text.Encoding.UTF8.GetByteCount(name.Split('/')[^1]));
        var source = TestData.RandomBytes(70_000);
        using var first = new FileTransferFactory();
        using (var client = first.CreateClient())
        {
            using var put = await client.PutAsync($"/api/files/{name}", new ByteArrayContent(source), TestTimeout.Token);
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        }

        var logs = new LogCapture();
        using var restarted = new FileTransferFactory()
            .With("Storage:RootPath", first.Storage.RootPath)
            .With("Logging:LogLevel:FileTransfer.Server.Storage", "Information");
        using var again = restarted.WithWebHostBuilder(builder => builder.ConfigureLogging(logging => logging.AddProvider(logs))).CreateClient();

        Assert.Equal(Format(source), await ReprDigestAsync(again, name));
        Assert.True(File.Exists(Sidecar(first, name)));

        // Event 20 is "Computed SHA-256 of ...": the restarted server read the sidecar instead. The
        // GET's transfer line (written once its answer is complete) shows the capture hears the server.
        await Eventually.UntilAsync(() => logs.Entries.Any(entry => entry.Category.StartsWith("FileTransfer.Server", StringComparison.Ordinal)), "the server's log lines");
        Assert.DoesNotContain(logs.Entries, entry => entry.EventId.Id == 20);
    }

    [Fact]
    public async Task A_Sidecar_Names_Its_File_And_Is_Not_Believed_For_Another()
    {
        using var factory = new FileTransferFactory();
        var source = TestData.RandomBytes(1000);
        using var client = factory.CreateClient();
        await client.PutAsync("/api/files/a b/c d.bin", new ByteArrayContent(source), TestTimeout.Token);

        var text = await File.ReadAllTextAsync(Sidecar(factory, "a b/c d.bin"), TestTimeout.Token);

        Assert.EndsWith(" a b/c d.bin\n", text, StringComparison.Ordinal);
        Assert.StartsWith(Convert.ToHexStringLower(SHA256.HashData(source)) + " 1000 ", text, StringComparison.Ordinal);
    }

    private static string Sidecar(FileTransferFactory factory, string name) =>
        factory.Storage.PathOf(".ft-meta/sha256/" + DigestSidecars.SidecarKey(name));

    private static async Task<string> ReprDigestAsync(HttpClient client, string name)
    {
        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/{name}"), TestTimeout.Token);
        return Assert.Single(response.Headers.GetValues("Repr-Digest"));
    }

    private static string Format(byte[] bytes, bool hashed = false) =>
        $"sha-256=:{Convert.ToBase64String(hashed ? bytes : SHA256.HashData(bytes))}:";
}
