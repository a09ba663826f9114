using System.Security.Cryptography;
using FileTransfer.Core.Tests.Infrastructure;

namespace FileTransfer.Core.Tests.Contract;

/// <summary>
/// What every <see cref="IStorageBackend"/> must do, as its doc comments say: each backend's test
/// class derives from this and supplies a fresh, empty backend per test. Reads (missing names,
/// bytes and ranges of a version), writes (staging, commit, aborted writes, ETags), preconditions
/// (at commit and delete, concurrent writers, all-or-none commits), digests, and listing (order,
/// prefixes, paging, the byte budget, hidden names).
/// </summary>
/// <remarks>
/// The suite asks nothing about folders: an object store has none, so it never stores both a name
/// and a name below it ("a" and "a/b"), and what a folder does is left to each backend's own tests.
/// Every write is sealed before its commit, as the core does.
/// </remarks>
public abstract partial class StorageBackendContract : IAsyncLifetime
{
    private IStorageBackend? _backend;

    protected IStorageBackend Backend => _backend ?? throw new InvalidOperationException("The backend is created before each test.");

    protected static CancellationToken Token => TestTimeout.Token;

    /// <summary>Whether <see cref="IStorageBackend.SaveDigestAsync"/> keeps digests (its doc lets a store ignore them).</summary>
    protected virtual bool KeepsSavedDigests => true;

    /// <summary>A fresh backend holding no file.</summary>
    protected abstract ValueTask<IStorageBackend> CreateBackendAsync();

    /// <summary>Removes everything <paramref name="backend"/> holds (a folder, a bucket's objects).</summary>
    protected abstract ValueTask DeleteBackendAsync(IStorageBackend backend);

    /// <summary>
    /// Stores <paramref name="bytes"/> under <paramref name="name"/> the way another program would:
    /// no digest, no name rules (a file copied onto the disk, an object put into the bucket by
    /// another client).
    /// </summary>
    protected abstract ValueTask PlaceAsync(string name, byte[] bytes);

    public async Task InitializeAsync() => _backend = await CreateBackendAsync();

    public async Task DisposeAsync()
    {
        if (_backend is not null)
        {
            await DeleteBackendAsync(_backend);
        }
    }

    /// <summary>Stages <paramref name="bytes"/> in uneven pieces and seals the write, uncommitted.</summary>
    protected async Task<IStagedObject> StageAsync(string name, byte[] bytes, bool declareLength = true)
    {
        var token = Token;
        var staged = await Backend.StageAsync(name, declareLength ? bytes.Length : null, token);
        try
        {
            foreach (var piece in TestBytes.UnevenPieces(bytes))
            {
                await staged.WriteAsync(piece, token);
            }

            await staged.SealAsync(token);
            return staged;
        }
        catch
        {
            await staged.DisposeAsync();
            throw;
        }
    }

    /// <summary>The commit of a staged write of <paramref name="bytes"/>, with their SHA-256, as the core hands it over.</summary>
    protected static PendingCommit Pending(IStagedObject staged, byte[] bytes, Preconditions? preconditions = null) =>
        new(staged, preconditions ?? Preconditions.None, SHA256.HashData(bytes));

    /// <summary>Stages, commits and disposes a write, as an upload does.</summary>
    protected async Task<CommittedObject> StoreAsync(string name, byte[] bytes, Preconditions? preconditions = null, bool declareLength = true)
    {
        await using var staged = await StageAsync(name, bytes, declareLength);
        return Assert.Single(await Backend.CommitAsync([Pending(staged, bytes, preconditions)], Token));
    }

    /// <summary>The <paramref name="count"/> bytes from <paramref name="offset"/> of an opened version, read to the stream's end.</summary>
    protected static async Task<byte[]> ReadAsync(IOpenedObject opened, long offset, long count)
    {
        await using var stream = await opened.OpenReadAsync(offset, count, Token);
        return await TestBytes.ReadToEndAsync(stream, Token);
    }

    /// <summary>Opens the current version of <paramref name="name"/> and reads all of it; null when there is none.</summary>
    protected async Task<(StoredObject Version, byte[] Bytes)?> ReadCurrentAsync(string name)
    {
        await using var opened = await Backend.OpenAsync(name, Token);
        return opened is null ? null : (opened.Object, await ReadAsync(opened, 0, opened.Object.Size));
    }

    /// <summary>Asserts that <paramref name="name"/> holds exactly <paramref name="bytes"/> as the version with <paramref name="etag"/>.</summary>
    protected async Task AssertHoldsAsync(string name, byte[] bytes, string etag)
    {
        var current = await ReadCurrentAsync(name);
        Assert.NotNull(current);
        Assert.Equal(etag, current.Value.Version.ETag);
        Assert.Equal(bytes.LongLength, current.Value.Version.Size);
        Assert.Equal(TestBytes.Sha256(bytes), TestBytes.Sha256(current.Value.Bytes));
        Assert.Equal(etag, (await Backend.StatAsync(name, Token))?.ETag);
    }

    /// <summary>Asserts that no version of <paramref name="name"/> can be seen: stat, open or listing.</summary>
    protected async Task AssertAbsentAsync(string name)
    {
        Assert.Null(await Backend.StatAsync(name, Token));
        await using (var opened = await Backend.OpenAsync(name, Token))
        {
            Assert.Null(opened);
        }

        Assert.DoesNotContain(name, await ListNamesAsync(""));
    }

    /// <summary>Every page of a listing, following the backend's cursor until it is null.</summary>
    protected async Task<List<ObjectPage>> ListPagesAsync(string prefix, int limit = 1000, int maxNameBytes = ListQuery.MaxNameBytesPerPage)
    {
        var pages = new List<ObjectPage>();
        string? cursor = null;
        do
        {
            var page = await Backend.ListAsync(new ListRequest(prefix, cursor, limit, maxNameBytes), Token);
            pages.Add(page);
            cursor = page.NextCursor;
            Assert.True(pages.Count <= 10_000, "The listing did not end: its cursor never became null.");
        }
        while (cursor is not null);

        return pages;
    }

    protected async Task<List<string>> ListNamesAsync(string prefix, int limit = 1000) =>
        [.. (await ListPagesAsync(prefix, limit)).SelectMany(p => p.Objects).Select(o => o.Name)];
}
