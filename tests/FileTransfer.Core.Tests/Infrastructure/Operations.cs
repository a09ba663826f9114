using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace FileTransfer.Core.Tests.Infrastructure;

/// <summary>The core's operations over a backend, as the host registers them, and an upload as a protocol drives one.</summary>
internal static class Operations
{
    public static FileOperations Over(IStorageBackend backend, long maxFileSizeBytes = 100L * 1024 * 1024 * 1024, Quotas? quotas = null) =>
        new(backend, new ExtensionContentTypes(), Options.Create(new StorageOptions { MaxFileSizeBytes = maxFileSizeBytes }), Metrics(), NullLogger<FileOperations>.Instance, quotas);

    /// <summary>Transfer metrics on meters of their own (nothing listens in these tests).</summary>
    public static TransferMetrics Metrics() => new(new OwnMeters());

    /// <summary>Begins an upload, appends <paramref name="bytes"/> in pieces of <paramref name="pieceSize"/>, commits and disposes it.</summary>
    public static async Task<UploadResult> UploadAsync(this FileOperations files, UploadRequest request, byte[] bytes, int pieceSize = 7919)
    {
        var token = TestTimeout.Token;
        await using var upload = await files.BeginUploadAsync(TestCallers.Full, request, token);
        foreach (var piece in TestBytes.Pieces(bytes, pieceSize))
        {
            await upload.AppendAsync(piece, token);
        }

        return await files.CommitAsync(upload, token);
    }

    /// <summary>Meters of their own, as the host's factory makes them (nothing listens in these tests).</summary>
    private sealed class OwnMeters : IMeterFactory
    {
        public Meter Create(MeterOptions options) => new(options);

        public void Dispose()
        {
        }
    }

    /// <summary>A content type per extension, as the host's table gives it.</summary>
    private sealed class ExtensionContentTypes : IContentTypeMap
    {
        public string For(string fileName) =>
            Path.GetExtension(fileName) == ".txt" ? "text/plain" : "application/octet-stream";
    }
}
