using System.Globalization;
using System.Net;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Diagnostics;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Server.Tests.Uploads;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace FileTransfer.Server.Tests.Events;

/// <summary>Watching: gRPC WatchEvents and GET api/events report each change once, whatever protocol made it, resume after a cursor, and show a caller only what it may read.</summary>
public sealed class WatchTests
{
    private const string Start = "0000000000000000000-00000000-0000000000";
    private const string Reader = "reader-of-teams-a-only-0123456789";

    [Fact]
    public async Task Every_Protocol_Raises_Each_Change_Once_Naming_The_Protocol()
    {
        using var server = new KestrelFactory();
        var grpc = GrpcClients.For(server);
        using var http = KestrelFactory.ClientFor(server.AddressOf(Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1), HttpVersion.Version11);
        using var watch = grpc.WatchEvents(new WatchEventsRequest { Prefix = "p/" }, cancellationToken: TestTimeout.Token);
        await watch.ResponseHeadersAsync;

        await http.PutAsync("p/rest.bin", [1]);
        await http.PutAsync("p/rest.bin", [2]);
        await http.PutAsync("p/web.bin", [3], web: true);
        using (var form = new MultipartFormDataContent { { new ByteArrayContent([4]), "file", "m1.bin" }, { new ByteArrayContent([5]), "file", "m2.bin" } })
        {
            (await http.PostAsync("api/files?folder=p", form, TestTimeout.Token)).EnsureSuccessStatusCode();
        }

        var tus = await Tus.CreateAsync(http, "p/tus.bin", 2);
        (await Tus.AppendAsync(http, tus, [6, 7], 0, 2)).EnsureSuccessStatusCode();
        (await http.SendAsync(Draft.Create("p/draft.bin", [8], complete: true), TestTimeout.Token)).EnsureSuccessStatusCode();
        using (var upload = grpc.UploadFile(cancellationToken: TestTimeout.Token))
        {
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Metadata = new FileMetadata { FileName = "p/grpc.bin" } });
            await upload.RequestStream.WriteAsync(new UploadFileRequest { Chunk = ByteString.CopyFrom(9) });
            await upload.RequestStream.CompleteAsync();
            await upload;
        }

        var session = await grpc.StartUploadAsync(new StartUploadRequest { FileName = "p/cancelled.bin" }, cancellationToken: TestTimeout.Token);
        await grpc.CancelUploadAsync(new CancelUploadRequest { UploadId = session.UploadId }, cancellationToken: TestTimeout.Token);
        (await http.DeleteAsync("api/files/p/rest.bin", TestTimeout.Token)).EnsureSuccessStatusCode();
        await grpc.DeleteFileAsync(new DeleteFileRequest { FileName = "p/grpc.bin" }, cancellationToken: TestTimeout.Token);

        (string, string, string)[] expected =
        [
            ("file.created", "p/rest.bin", "rest"), ("file.replaced", "p/rest.bin", "rest"), ("file.created", "p/web.bin", "web"),
            ("file.created", "p/m1.bin", "rest"), ("file.created", "p/m2.bin", "rest"),
            ("upload.started", "p/tus.bin", "tus"), ("file.created", "p/tus.bin", "tus"), ("upload.completed", "p/tus.bin", "tus"),
            ("upload.started", "p/draft.bin", "draft"), ("file.created", "p/draft.bin", "draft"), ("upload.completed", "p/draft.bin", "draft"),
            ("file.created", "p/grpc.bin", "grpc"),
            ("upload.started", "p/cancelled.bin", "grpc"), ("upload.cancelled", "p/cancelled.bin", "grpc"),
            ("file.deleted", "p/rest.bin", "rest"), ("file.deleted", "p/grpc.bin", "grpc"),
        ];
        var seen = new List<Protos.V1.FileEvent>();
        while (seen.Count < expected.Length && await watch.ResponseStream.MoveNext(TestTimeout.Token))
        {
            seen.Add(watch.ResponseStream.Current);
        }

        Assert.Equal(expected, seen.Select(e => (e.Type, e.FileName, e.Protocol)));
        Assert.Equal(seen.Count, seen.Select(e => e.Id).Distinct().Count());
        Assert.Equal(seen.Select(e => e.Id).Order(StringComparer.Ordinal), seen.Select(e => e.Id));
        var tusStored = seen.Single(e => e.Type == "upload.completed" && e.FileName == "p/tus.bin");
        Assert.Equal(EventServers.Sha256Hex([6, 7]), Convert.ToHexStringLower(tusStored.Sha256.ToByteArray()));
        Assert.Equal(2, tusStored.Size);
    }

    [Fact]
    public async Task Sse_Replays_Retained_Events_After_A_Cursor_And_Resumes_With_Last_Event_Id_After_A_Restart()
    {
        using var root = new TempStorage();
        string[] ids;
        using (var first = new FileTransferFactory().With("Storage:RootPath", root.RootPath))
        {
            using var client = first.CreateClient();
            await client.PutAsync("a/1.bin", [1]);
            await client.PutAsync("b/1.bin", [1]);
            await client.PutAsync("a/2.bin", [2]);

            var all = await EventServers.ReadSseAsync(client, "?prefix=a/&after=" + Start, 2);
            Assert.Equal(["a/1.bin", "a/2.bin"], all.Select(e => e.Data.GetProperty("name").GetString()));
            Assert.All(all, e => Assert.Equal(e.Id, e.Data.GetProperty("id").GetString()));
            Assert.All(all, e => Assert.Equal("file.created", e.Type));
            ids = [.. all.Select(e => e.Id)];
        }

        // A new process over the same root: the retained events come from the journal on disk.
        using var second = new FileTransferFactory().With("Storage:RootPath", root.RootPath);
        using var again = second.CreateClient();
        var put = again.PutAsync("a/3.bin", [3]);
        var resumed = await EventServers.ReadSseAsync(again, "?prefix=a/", 2, lastEventId: ids[0]);
        (await put).Dispose();
        Assert.Equal(["a/2.bin", "a/3.bin"], resumed.Select(e => e.Data.GetProperty("name").GetString()));
        Assert.Equal(ids[1], resumed[0].Id);
    }

    [Fact]
    public async Task A_Watcher_Sees_Only_Names_It_May_Read_And_A_Key_Without_Read_Is_Refused()
    {
        using var server = new FileTransferFactory()
            .With("Auth:ApiKeys:1:Key", Reader).With("Auth:ApiKeys:1:Scopes:0", "read").With("Auth:ApiKeys:1:Paths:0", "teams/a/")
            .With("Auth:ApiKeys:2:Key", "writer-without-read-0123456789").With("Auth:ApiKeys:2:Scopes:0", "write");
        using var client = server.CreateClient();
        await client.PutAsync("teams/b/secret.bin", [1]);
        await client.PutAsync("teams/a/shared.bin", [2]);
        await client.PutAsync("teams/b/later.bin", [3]);
        await client.PutAsync("teams/a/last.bin", [4]);

        var seen = await EventServers.ReadSseAsync(client, "?after=" + Start, 2, apiKey: Reader);
        Assert.Equal(["teams/a/shared.bin", "teams/a/last.bin"], seen.Select(e => e.Data.GetProperty("name").GetString()));

        using var refused = new HttpRequestMessage(HttpMethod.Get, "api/events");
        refused.Headers.Authorization = new("Bearer", "writer-without-read-0123456789");
        await Problems.AssertAsync(await client.SendAsync(refused, TestTimeout.Token), HttpStatusCode.Forbidden);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Every_Sse_Watcher_Is_Unregistered_When_Its_Client_Leaves_Or_The_Server_Stops(bool serverStops)
    {
        var logs = new LogCapture();
        using var server = new KestrelFactory();
        server.With("RateLimit:Enabled", "false").WithLogs(logs);
        using var http = KestrelFactory.ClientFor(server.AddressOf(Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1), HttpVersion.Version11);
        var feed = server.Services.GetRequiredService<FileTransfer.Core.FileEvents>().Feed;

        // Each stream ends while it waits for its next event, which must finish before its enumerator
        // is disposed: an async iterator disposed in the middle of a step throws NotSupportedException
        // (logged as an unhandled error of the request), and unregisters its watcher only once the
        // step ends on its own.
        var streams = await Task.WhenAll(Enumerable.Range(0, 32).Select(async _ =>
        {
            var response = await http.GetAsync("api/events", HttpCompletionOption.ResponseHeadersRead, TestTimeout.Token);
            response.EnsureSuccessStatusCode();
            var reader = new StreamReader(await response.Content.ReadAsStreamAsync(TestTimeout.Token));
            Assert.Equal(": watching", await reader.ReadLineAsync(TestTimeout.Token));
            return (response, reader);
        }));
        Assert.Equal(streams.Length, feed.WatcherCount);
        if (serverStops)
        {
            server.Services.GetRequiredService<IHostApplicationLifetime>().StopApplication();
        }

        foreach (var (response, reader) in streams)
        {
            reader.Dispose();
            response.Dispose();
        }

        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (feed.WatcherCount > 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20, TestTimeout.Token);
        }

        Assert.Equal(0, feed.WatcherCount);
        Assert.DoesNotContain(logs.Entries, e => e.Level >= LogLevel.Error);
    }

    [Theory]
    [InlineData("?after=42")]
    [InlineData("?types=file.renamed")]
    public async Task A_Bad_Cursor_Or_Type_Is_Refused_Before_The_Stream(string query)
    {
        using var server = new FileTransferFactory();
        using var client = server.CreateClient();
        var problem = await Problems.AssertAsync(await client.GetAsync("api/events" + query, TestTimeout.Token), HttpStatusCode.BadRequest);
        Assert.Equal("INVALID_PAGE_REQUEST", problem.GetProperty("reason").GetString());
    }

    [Fact]
    public async Task A_Grpc_Watcher_Filters_By_Type_And_Is_Refused_A_Bad_Cursor()
    {
        using var server = new KestrelFactory();
        var grpc = GrpcClients.For(server);
        using var http = KestrelFactory.ClientFor(server.AddressOf(Microsoft.AspNetCore.Server.Kestrel.Core.HttpProtocols.Http1), HttpVersion.Version11);
        await http.PutAsync("t/a.bin", [1]);
        (await http.DeleteAsync("api/files/t/a.bin", TestTimeout.Token)).EnsureSuccessStatusCode();

        using var watch = grpc.WatchEvents(new WatchEventsRequest { After = Start, Types_ = { "file.deleted" } }, cancellationToken: TestTimeout.Token);
        Assert.True(await watch.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.Equal(("file.deleted", "t/a.bin"), (watch.ResponseStream.Current.Type, watch.ResponseStream.Current.FileName));

        using var bad = grpc.WatchEvents(new WatchEventsRequest { After = "nope" }, cancellationToken: TestTimeout.Token);
        var refused = await Assert.ThrowsAsync<RpcException>(() => bad.ResponseStream.MoveNext(TestTimeout.Token));
        Assert.Equal(StatusCode.InvalidArgument, refused.StatusCode);
    }

    [Fact]
    public async Task The_Events_Of_One_File_Are_In_The_Order_Of_Its_Changes_Under_Concurrent_Writes()
    {
        using var server = new FileTransferFactory().With("RateLimit:Enabled", "false");
        using var client = server.CreateClient();
        await Task.WhenAll(Enumerable.Range(0, 8).Select(async writer =>
        {
            for (var i = 0; i < 10; i++)
            {
                await client.PutAsync("hot.bin", TestData.RandomBytes(100 + writer));
                await client.PutAsync($"cold/{writer}-{i}.bin", [1]);
            }
        }));

        var events = await EventServers.ReadSseAsync(client, "?prefix=hot.bin&after=" + Start, 80);
        // The local disk's ETag is "<modification ticks>-<size>" in hex, strictly later for each replace:
        // the events must carry them in that order.
        var ticks = events.Select(e => long.Parse(e.Data.GetProperty("etag").GetString()!.Trim('"').Split('-')[0], NumberStyles.HexNumber, CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(ticks.Order(), ticks);
        Assert.Equal(80, ticks.Distinct().Count());
        Assert.Equal("file.created", events[0].Type);
        Assert.All(events.Skip(1), e => Assert.Equal("file.replaced", e.Type));
        using var head = await client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "api/files/hot.bin"), TestTimeout.Token);
        Assert.Equal(head.Headers.ETag!.ToString(), events[^1].Data.GetProperty("etag").GetString());
    }
}
