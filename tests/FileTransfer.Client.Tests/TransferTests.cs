using System.Security.Cryptography;
using FileTransfer.Client.Tests.Infrastructure;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Client.Tests;

/// <summary>The library moving bytes both ways over both protocols against the real server on Kestrel.</summary>
public sealed class TransferTests : IDisposable
{
    private readonly KestrelFactory _server = new();
    private readonly TempStorage _local = new();

    public static TheoryData<FileTransferProtocol, int> EdgeSizes()
    {
        // 0, 1, around the server's 32 KiB gRPC chunk, and many chunks plus a remainder.
        var data = new TheoryData<FileTransferProtocol, int>();
        foreach (var protocol in new[] { FileTransferProtocol.Rest, FileTransferProtocol.Grpc })
        {
            foreach (var size in new[] { 0, 1, 32_767, 32_768, 32_769, (3 * 1024 * 1024) + 12_345 })
            {
                data.Add(protocol, size);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(EdgeSizes))]
    public async Task Upload_Then_Download_Moves_The_Exact_Bytes(FileTransferProtocol protocol, int size)
    {
        var source = RandomNumberGenerator.GetBytes(size);
        using var client = Clients.For(_server, protocol);

        var uploaded = await client.UploadAsync("edge/file.bin", new MemoryStream(source), cancellationToken: TestTimeout.Token);
        using var copy = new MemoryStream();
        var downloaded = await client.DownloadAsync("edge/file.bin", copy, cancellationToken: TestTimeout.Token);

        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(await File.ReadAllBytesAsync(_server.Storage.PathOf("edge/file.bin"), TestTimeout.Token)));
        Assert.Equal(TempStorage.Sha256(source), TempStorage.Sha256(copy.ToArray()));
        Assert.True(uploaded.VerifiedBeforeCommit);
        Assert.Equal(SHA256.HashData(source), uploaded.Sha256);
        Assert.Equal(size, uploaded.File.Size);
        Assert.True(downloaded.Verified);
        Assert.Equal(SHA256.HashData(source), downloaded.Sha256);
        Assert.Equal(size, downloaded.Length);
        Assert.Equal(0, downloaded.Retries);
    }

    // A download hands each received chunk's pooled array to its hashing thread, which returns it to
    // the shared pool (Transfers/BackgroundHash). An array returned while still written or hashed, or
    // returned twice, is rented again by another download at once: with several running in one process,
    // one of them would store or hash bytes that are not its own.
    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Concurrent_Downloads_In_One_Process_Each_Get_Their_Own_Bytes(FileTransferProtocol protocol)
    {
        const int Downloads = 6;
        var sources = Enumerable.Range(0, Downloads).Select(i => _server.Storage.WriteRandom($"many/{i}.bin", (2 * 1024 * 1024) + (i * 4099))).ToArray();

        using var client = Clients.For(_server, protocol);
        var copies = await Task.WhenAll(Enumerable.Range(0, Downloads).Select(async i =>
        {
            var path = _local.PathOf($"many-{i}.bin");
            var result = await client.DownloadToFileAsync($"many/{i}.bin", path, cancellationToken: TestTimeout.Token);
            return (result, bytes: await File.ReadAllBytesAsync(path, TestTimeout.Token));
        }));

        for (var i = 0; i < Downloads; i++)
        {
            Assert.True(copies[i].result.Verified);
            Assert.Equal(SHA256.HashData(sources[i]), copies[i].result.Sha256);
            Assert.Equal(TempStorage.Sha256(sources[i]), TempStorage.Sha256(copies[i].bytes));
        }
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Upload_From_A_Stream_That_Cannot_Seek_Is_Compared_After_The_Upload(FileTransferProtocol protocol)
    {
        var source = RandomNumberGenerator.GetBytes(100_000);
        using var client = Clients.For(_server, protocol, o => o.UploadChunkSize = 10_000);

        var result = await client.UploadAsync("stream/once.bin", new ForwardOnlyStream(source), cancellationToken: TestTimeout.Token);

        Assert.False(result.VerifiedBeforeCommit);
        Assert.Equal(SHA256.HashData(source), result.Sha256);
        Assert.Equal(source, await File.ReadAllBytesAsync(_server.Storage.PathOf("stream/once.bin"), TestTimeout.Token));
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_To_File_Resumes_The_Part_From_Where_It_Stopped(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("resume/big.bin", 1_000_000);
        using var client = Clients.For(_server, protocol);
        var path = _local.PathOf("big.bin");
        await File.WriteAllBytesAsync(path + ".part", source[..400_000], TestTimeout.Token);
        await File.WriteAllTextAsync(path + ".part.etag", (await client.GetInfoAsync("resume/big.bin", TestTimeout.Token)).ETag, TestTimeout.Token);
        var progress = new RecordingProgress();

        var result = await client.DownloadToFileAsync("resume/big.bin", path, progress, TestTimeout.Token);

        Assert.Equal(400_000, result.ResumedAt);
        Assert.Equal(DownloadRestartReason.None, result.Restarted);
        Assert.True(result.Verified);
        Assert.Equal(source, await File.ReadAllBytesAsync(path, TestTimeout.Token));
        Assert.Equal(["big.bin"], _local.Files());
        Assert.All(progress.Reports, r => Assert.Equal(400_000, r.StartedAt));
        Assert.Equal(1_000_000, progress.Reports[^1].BytesDone);
        Assert.True(progress.Reports[^1].IsComplete);
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_To_File_Starts_Over_When_The_File_Changed_Since_The_Part(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("resume/changed.bin", 300_000);
        var path = _local.PathOf("changed.bin");
        await File.WriteAllBytesAsync(path + ".part", new byte[100_000], TestTimeout.Token);
        await File.WriteAllTextAsync(path + ".part.etag", "\"an-older-version\"", TestTimeout.Token);
        using var client = Clients.For(_server, protocol);

        var result = await client.DownloadToFileAsync("resume/changed.bin", path, cancellationToken: TestTimeout.Token);

        Assert.Equal(DownloadRestartReason.FileChanged, result.Restarted);
        Assert.Equal(0, result.ResumedAt);
        Assert.Equal(source, await File.ReadAllBytesAsync(path, TestTimeout.Token));
        Assert.Equal(["changed.bin"], _local.Files());
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_To_File_Starts_Over_When_The_Part_Is_Longer_Than_The_File(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("resume/shrunk.bin", 1000);
        var path = _local.PathOf("shrunk.bin");
        await File.WriteAllBytesAsync(path + ".part", new byte[5000], TestTimeout.Token);
        using var client = Clients.For(_server, protocol);

        var result = await client.DownloadToFileAsync("resume/shrunk.bin", path, cancellationToken: TestTimeout.Token);

        Assert.Equal(DownloadRestartReason.PartLongerThanFile, result.Restarted);
        Assert.Equal(source, await File.ReadAllBytesAsync(path, TestTimeout.Token));
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_To_File_Deletes_A_Part_Whose_Prefix_Fails_The_Digest(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("resume/corrupt.bin", 200_000);
        var path = _local.PathOf("corrupt.bin");
        var corrupt = source[..50_000];
        corrupt[10] ^= 0xFF;
        await File.WriteAllBytesAsync(path + ".part", corrupt, TestTimeout.Token);
        using var client = Clients.For(_server, protocol);

        var error = await Assert.ThrowsAsync<FileTransferException>(() => client.DownloadToFileAsync("resume/corrupt.bin", path, cancellationToken: TestTimeout.Token));

        Assert.Equal(FileTransferErrorKind.DigestMismatch, error.Kind);
        Assert.Empty(_local.Files());
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_To_File_Cancelled_Midway_Keeps_The_Part_And_The_Next_Call_Resumes_It(FileTransferProtocol protocol)
    {
        // What Ctrl+C does to the CLI: the caller's token is cancelled in the middle of the transfer.
        var source = _server.Storage.WriteRandom("cancel/big.bin", 3_000_000);
        var path = _local.PathOf("big.bin");
        using var client = Clients.For(_server, protocol);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
        var stopAt = new StopAt(100_000, cancel);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.DownloadToFileAsync("cancel/big.bin", path, stopAt, cancel.Token));

        var kept = await File.ReadAllBytesAsync(path + ".part", TestTimeout.Token);
        Assert.InRange(kept.Length, 100_000, 2_999_999);
        Assert.Equal(source[..kept.Length], kept);
        var result = await client.DownloadToFileAsync("cancel/big.bin", path, cancellationToken: TestTimeout.Token);
        Assert.Equal(kept.Length, result.ResumedAt);
        Assert.Equal(source, await File.ReadAllBytesAsync(path, TestTimeout.Token));
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Download_Into_A_Stream_Resumes_After_Its_Content_With_If_Match(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("resume/stream.bin", 70_000);
        using var client = Clients.For(_server, protocol);
        var eTag = (await client.GetInfoAsync("resume/stream.bin", TestTimeout.Token)).ETag;
        using var destination = new MemoryStream();
        destination.Write(source, 0, 12_345);
        string? announced = null;

        var result = await client.DownloadAsync("resume/stream.bin", destination,
            new DownloadOptions { Resume = true, IfMatch = eTag, OnETag = e => announced = e }, cancellationToken: TestTimeout.Token);

        Assert.Equal(12_345, result.ResumedAt);
        Assert.Equal(eTag, announced);
        Assert.Equal(source, destination.ToArray());
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Info_Describes_Size_Type_Time_ETag_And_Sha256_The_Same_Way(FileTransferProtocol protocol)
    {
        var source = _server.Storage.WriteRandom("info/report.pdf", 4321);
        using var client = Clients.For(_server, protocol);

        var info = await client.GetInfoAsync("info/report.pdf", TestTimeout.Token);

        Assert.Equal("info/report.pdf", info.Name);
        Assert.Equal(4321, info.Size);
        Assert.Equal("application/pdf", info.ContentType);
        Assert.Matches("^\"[0-9a-f]+-10e1\"$", info.ETag);
        Assert.Equal(SHA256.HashData(source), info.Sha256);
        Assert.Equal(File.GetLastWriteTimeUtc(_server.Storage.PathOf("info/report.pdf")), info.LastModified!.Value.UtcDateTime, TimeSpan.FromSeconds(1));
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task List_Yields_Every_File_Under_The_Prefix_In_Order_Across_Pages(FileTransferProtocol protocol)
    {
        var names = Enumerable.Range(0, 7).Select(i => $"list/f{i}.bin").ToList();
        foreach (var name in names)
        {
            _server.Storage.WriteRandom(name, 10);
        }

        _server.Storage.WriteRandom("other/x.bin", 1);
        // Pages of 3 over gRPC: three ListFiles calls; REST has one array.
        using var client = Clients.For(_server, protocol, o => o.ListPageSize = 3);

        var listed = new List<string>();
        await foreach (var file in client.ListAsync("list/", TestTimeout.Token))
        {
            Assert.Equal(10, file.Size);
            listed.Add(file.Name);
        }

        Assert.Equal(names, listed);
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Delete_With_If_Match_Deletes_Only_The_Version_Held(FileTransferProtocol protocol)
    {
        _server.Storage.WriteRandom("rm/a.bin", 10);
        using var client = Clients.For(_server, protocol);
        var eTag = (await client.GetInfoAsync("rm/a.bin", TestTimeout.Token)).ETag;

        var stale = await Assert.ThrowsAsync<FileTransferException>(() => client.DeleteAsync("rm/a.bin", "\"not-the-version\"", TestTimeout.Token));
        Assert.True(File.Exists(_server.Storage.PathOf("rm/a.bin")));
        await client.DeleteAsync("rm/a.bin", eTag, TestTimeout.Token);

        Assert.Equal(FileTransferErrorKind.PreconditionFailed, stale.Kind);
        Assert.False(File.Exists(_server.Storage.PathOf("rm/a.bin")));
    }

    [Theory]
    [InlineData(FileTransferProtocol.Rest)]
    [InlineData(FileTransferProtocol.Grpc)]
    public async Task Upload_Reports_Hashing_Then_Uploading_Progress_To_The_Last_Byte(FileTransferProtocol protocol)
    {
        var source = _local.WriteRandom("progress.bin", 300_000);
        using var client = Clients.For(_server, protocol);
        var progress = new RecordingProgress();

        await client.UploadFileAsync(_local.PathOf("progress.bin"), "p/progress.bin", progress: progress, cancellationToken: TestTimeout.Token);

        var hashing = progress.Reports.Where(r => r.Phase == TransferPhase.Hashing).ToList();
        var uploading = progress.Reports.Where(r => r.Phase == TransferPhase.Uploading).ToList();
        Assert.Equal("progress.bin", hashing[0].Name);
        Assert.True(hashing[^1].IsComplete);
        Assert.Equal(source.Length, hashing[^1].BytesDone);
        Assert.True(progress.Reports.IndexOf(uploading[0]) > progress.Reports.IndexOf(hashing[^1]));
        Assert.True(uploading[^1].IsComplete);
        Assert.Equal(source.Length, uploading[^1].BytesDone);
        Assert.Equal(source.Length, uploading[^1].TotalBytes);
        Assert.Equal(uploading.Select(r => r.BytesDone).Order(), uploading.Select(r => r.BytesDone));
    }

    public void Dispose()
    {
        _server.Dispose();
        _local.Dispose();
    }

    /// <summary>Cancels once a download passed a number of bytes.</summary>
    private sealed class StopAt(long bytes, CancellationTokenSource cancel) : IProgress<TransferProgress>
    {
        public void Report(TransferProgress value)
        {
            if (value.BytesDone >= bytes)
            {
                cancel.Cancel();
            }
        }
    }
}

