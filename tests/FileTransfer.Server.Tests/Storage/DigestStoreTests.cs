using System.Security.Cryptography;
using FileTransfer.Server.Tests.Infrastructure;

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
        Assert.True(File.Exists(factory.Storage.PathOf(".ft-meta/sha256/placed.bin")));
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
        var sidecar = first.Storage.PathOf(".ft-meta/sha256/kept.bin");
        var fields = (await File.ReadAllTextAsync(sidecar, TestTimeout.Token)).Split(' ');
        var marker = new byte[32];
        marker[0] = 42;
        await File.WriteAllTextAsync(sidecar, $"{Convert.ToHexStringLower(marker)} {fields[1]} {fields[2]}", TestTimeout.Token);
        using var restarted = new FileTransferFactory().With("Storage:RootPath", first.Storage.RootPath);
        using var again = restarted.CreateClient();

        Assert.Equal(Format(marker, hashed: true), await ReprDigestAsync(again, "kept.bin"));
    }

    private static async Task<string> ReprDigestAsync(HttpClient client, string name)
    {
        using var response = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, $"/api/files/{name}"), TestTimeout.Token);
        return Assert.Single(response.Headers.GetValues("Repr-Digest"));
    }

    private static string Format(byte[] bytes, bool hashed = false) =>
        $"sha-256=:{Convert.ToBase64String(hashed ? bytes : SHA256.HashData(bytes))}:";
}
