using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace FileTransfer.Server.Tests.Rest;

public sealed class MultipartUploadTests
{
    [Fact]
    public async Task Several_Files_In_One_Form_Are_Stored_With_Their_Names_And_Digests()
    {
        using var factory = new FileTransferFactory();
        var first = TestData.RandomBytes(200_000);
        var second = TestData.RandomBytes(1);
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(first), "file", "first.bin" },
            { new ByteArrayContent(second), "file", "second é.txt" },
            { new StringContent("ignored"), "comment" },
        };
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=forms/batch", form, TestTimeout.Token);
        var stored = await response.Content.ReadFromJsonAsync<JsonElement[]>(TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(["forms/batch/first.bin", "forms/batch/second é.txt"], stored!.Select(s => s.GetProperty("name").GetString()));
        Assert.Equal(first, await File.ReadAllBytesAsync(factory.Storage.PathOf("forms/batch/first.bin"), TestTimeout.Token));
        Assert.Equal(second, await File.ReadAllBytesAsync(factory.Storage.PathOf("forms/batch/second é.txt"), TestTimeout.Token));
        Assert.Equal(Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(first)), stored![0].GetProperty("sha256").GetString());
    }

    [Fact]
    public async Task A_Bad_Part_Stores_None_Of_The_Files()
    {
        using var factory = new FileTransferFactory();
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "good.bin" },
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "..\\evil.bin" },
        };
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files", form, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Empty(factory.Storage.Files());
    }

    [Theory]
    [InlineData("\uFF0E\uFF0E\uFF0Fevil.bin")]
    [InlineData("\u2025")]
    public async Task A_File_Name_That_Normalises_Into_Traversal_Is_400_And_Nothing_Is_Stored(string fileName)
    {
        using var factory = new FileTransferFactory();
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", "good.bin" },
            { new ByteArrayContent(TestData.RandomBytes(1000)), "file", fileName },
        };
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=sub", form, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.BadRequest);
        Assert.Empty(factory.Storage.Files());
    }

    [Fact]
    public async Task A_Form_Without_A_File_Is_400_And_A_Non_Form_Body_Is_415()
    {
        using var factory = new FileTransferFactory();
        using var client = factory.CreateClient();
        using var noFile = new MultipartFormDataContent { { new StringContent("x"), "comment" } };

        using var empty = await client.PostAsync("/api/files", noFile, TestTimeout.Token);
        using var json = await client.PostAsync("/api/files", JsonContent.Create(new { a = 1 }), TestTimeout.Token);

        await Problems.AssertAsync(empty, HttpStatusCode.BadRequest);
        await Problems.AssertAsync(json, HttpStatusCode.UnsupportedMediaType);
    }

    [Fact]
    public async Task A_Part_Over_The_Size_Limit_Is_413_And_Nothing_Is_Stored()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFileSizeBytes", "5000");
        using var form = new MultipartFormDataContent
        {
            { new ByteArrayContent(TestData.RandomBytes(100)), "file", "small.bin" },
            { new ByteArrayContent(TestData.RandomBytes(6000)), "file", "big.bin" },
        };
        form.Headers.ContentType = MediaTypeHeaderValue.Parse(form.Headers.ContentType!.ToString());
        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files", form, TestTimeout.Token);

        await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Empty(factory.Storage.Files());
    }

    [Fact]
    public async Task A_Form_With_More_Files_Than_Allowed_Is_413_And_Stores_None()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFilesPerRequest", "3");
        using var form = new MultipartFormDataContent();
        for (var i = 0; i < 4; i++)
        {
            form.Add(new ByteArrayContent(TestData.RandomBytes(100)), "file", $"f{i}.bin");
        }

        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=many", form, TestTimeout.Token);

        var problem = await Problems.AssertAsync(response, HttpStatusCode.RequestEntityTooLarge);
        Assert.Contains("at most 3 files", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Empty(factory.Storage.Files());
    }

    [Fact]
    public async Task A_Form_With_Exactly_The_Allowed_Files_And_Any_Number_Of_Fields_Is_Stored()
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFilesPerRequest", "3");
        using var form = new MultipartFormDataContent();
        for (var i = 0; i < 3; i++)
        {
            form.Add(new ByteArrayContent(TestData.RandomBytes(100)), "file", $"f{i}.bin");
            form.Add(new StringContent("a field is not a file"), $"comment{i}");
        }

        using var client = factory.CreateClient();

        using var response = await client.PostAsync("/api/files?folder=many", form, TestTimeout.Token);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal(["many/f0.bin", "many/f1.bin", "many/f2.bin"], factory.Storage.Files().Where(f => !f.StartsWith(".ft-", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-1")]
    [InlineData("100001")]
    [InlineData("many")]
    public void An_Invalid_Files_Per_Request_Limit_Stops_The_Server_At_Start(string value)
    {
        using var factory = new FileTransferFactory().With("Storage:MaxFilesPerRequest", value);

        var error = Assert.ThrowsAny<Exception>(() => factory.CreateClient());

        Assert.Contains("MaxFilesPerRequest", error.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("1.1")]
    [InlineData("2.0")]
    public async Task A_Form_Holds_One_Open_Temporary_File_At_A_Time_And_Commits_All_At_The_End(string version)
    {
        const int Parts = 12;
        using var server = new KestrelFactory();
        var protocols = version == "2.0" ? HttpProtocols.Http2 : HttpProtocols.Http1;
        using var client = KestrelFactory.ClientFor(server.AddressOf(protocols), Version.Parse(version));
        var parts = Enumerable.Range(0, Parts).Select(_ => TestData.RandomBytes(40_000)).ToArray();
        var form = new SteppedForm(parts);

        var upload = client.PostAsync("/api/files?folder=open", form, TestTimeout.Token);
        await form.AllPartsSent.WaitAsync(TestTimeout.Token);
        await AtomicCommitTests.WaitUntilAsync(() => TempFiles(server).Count() == Parts);
        var openDuringTheLastPart = OpenTempFiles(server.Storage.RootPath);
        var storedBeforeTheEnd = Visible(server);
        form.Finish();
        using var response = await upload;

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        if (OperatingSystem.IsLinux())
        {
            Assert.True(openDuringTheLastPart <= 1, $"{openDuringTheLastPart} temporary files open at once");
        }

        Assert.Empty(storedBeforeTheEnd);
        for (var i = 0; i < Parts; i++)
        {
            Assert.Equal(TempStorage.Sha256(parts[i]), TempStorage.Sha256(await File.ReadAllBytesAsync(server.Storage.PathOf($"open/p{i}.bin"), TestTimeout.Token)));
        }

        Assert.Empty(TempFiles(server));
    }

    [Fact]
    public async Task A_Form_Aborted_After_Several_Parts_Stores_None_And_Leaves_No_Temporary_File()
    {
        using var server = new KestrelFactory();
        using var client = KestrelFactory.ClientFor(server.AddressOf(HttpProtocols.Http1), HttpVersion.Version11);
        var form = new SteppedForm([.. Enumerable.Range(0, 5).Select(_ => TestData.RandomBytes(10_000))]);
        using var cancel = new CancellationTokenSource();

        var upload = client.PostAsync("/api/files?folder=aborted", form, cancel.Token);
        await form.AllPartsSent.WaitAsync(TestTimeout.Token);
        await AtomicCommitTests.WaitUntilAsync(() => TempFiles(server).Count() == 5);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => upload);

        await AtomicCommitTests.WaitUntilAsync(() => !TempFiles(server).Any());
        Assert.Empty(Visible(server));
    }

    private static IEnumerable<string> TempFiles(FileTransferFactory server) =>
        server.Storage.Files().Where(f => Path.GetFileName(f).StartsWith(".ft-upload-", StringComparison.Ordinal));

    private static List<string> Visible(FileTransferFactory server) =>
        [.. server.Storage.Files().Where(f => !f.Split('/').Any(s => s.StartsWith(".ft-", StringComparison.Ordinal)))];

    // The server runs in this process: its open files are this process's descriptors.
    private static int OpenTempFiles(string root)
    {
        if (!OperatingSystem.IsLinux())
        {
            return 0;
        }

        var open = 0;
        foreach (var descriptor in Directory.EnumerateFileSystemEntries("/proc/self/fd"))
        {
            try
            {
                var target = new FileInfo(descriptor).LinkTarget;
                if (target is not null && target.StartsWith(root + "/", StringComparison.Ordinal) && Path.GetFileName(target).StartsWith(".ft-upload-", StringComparison.Ordinal))
                {
                    open++;
                }
            }
            catch (IOException)
            {
                // Closed while we looked.
            }
        }

        return open;
    }

    /// <summary>A multipart body of files p0.bin, p1.bin, ... that holds back its closing boundary until told.</summary>
    private sealed class SteppedForm : HttpContent
    {
        private const string Boundary = "stepped-form-boundary";
        private readonly byte[][] _parts;
        private readonly TaskCompletionSource _sent = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _finish = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public SteppedForm(byte[][] parts)
        {
            _parts = parts;
            Headers.ContentType = MediaTypeHeaderValue.Parse($"multipart/form-data; boundary={Boundary}");
        }

        public Task AllPartsSent => _sent.Task;

        public void Finish() => _finish.TrySetResult();

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
            SerializeToStreamAsync(stream, context, CancellationToken.None);

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
        {
            for (var i = 0; i < _parts.Length; i++)
            {
                await stream.WriteAsync(Encoding.ASCII.GetBytes($"--{Boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p{i}.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"), cancellationToken);
                await stream.WriteAsync(_parts[i], cancellationToken);
                await stream.WriteAsync("\r\n"u8.ToArray(), cancellationToken);
            }

            await stream.FlushAsync(cancellationToken);
            _sent.TrySetResult();
            await _finish.Task.WaitAsync(cancellationToken);
            await stream.WriteAsync(Encoding.ASCII.GetBytes($"--{Boundary}--\r\n"), cancellationToken);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
