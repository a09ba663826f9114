using FileTransfer.Core;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Events;

/// <summary>Receivers in other languages verify the server's signatures: Node.js with the standardwebhooks reference library, Python with the spec on its standard library.</summary>
public sealed class ReceiverInteropTests
{
    [Theory]
    [InlineData("node")]
    [InlineData("python")]
    public async Task A_Receiver_Verifies_Every_Event_And_Refuses_A_Wrong_Secret(string language)
    {
        var secret = WebhookReceiver.NewSecret();
        await using var right = language == "node" ? await ReceiverProcess.StartNodeAsync(secret) : await ReceiverProcess.StartPythonAsync(secret);
        await using var wrong = language == "node" ? await ReceiverProcess.StartNodeAsync(WebhookReceiver.NewSecret()) : await ReceiverProcess.StartPythonAsync(WebhookReceiver.NewSecret());
        using var server = new FileTransferFactory()
            .With("Events:Webhooks:0:Url", right.Url.ToString()).With("Events:Webhooks:0:Secret", secret)
            .With("Events:Webhooks:1:Url", wrong.Url.ToString()).With("Events:Webhooks:1:Secret", secret);
        using var client = server.CreateClient();
        var bytes = TestData.RandomBytes(777);

        await client.PutAsync("interop/é ü.bin", bytes);
        (await client.DeleteAsync("api/files/interop/%C3%A9%20%C3%BC.bin", TestTimeout.Token)).EnsureSuccessStatusCode();

        var lines = await right.WaitForAsync(2);
        Assert.All(lines, line => Assert.True(line.GetProperty("verified").GetBoolean(), line.ToString()));
        var created = lines[0].GetProperty("event");
        Assert.Equal((FileEventTypes.FileCreated, "interop/é ü.bin", EventServers.Sha256Hex(bytes)), (created.GetProperty("type").GetString(), created.GetProperty("name").GetString(), created.GetProperty("sha256").GetString()));
        Assert.Equal(created.GetProperty("id").GetString(), lines[0].GetProperty("id").GetString());
        Assert.Equal(FileEventTypes.FileDeleted, lines[1].GetProperty("event").GetProperty("type").GetString());

        // The receiver whose secret differs refuses each request (401), which the server retries.
        var refused = await wrong.WaitForAsync(1);
        Assert.False(refused[0].GetProperty("verified").GetBoolean());
    }
}
