using System.Runtime.CompilerServices;
using Amazon.S3;
using Amazon.S3.Model;
using FileTransfer.Core;

namespace FileTransfer.Storage.S3;

/// <summary>
/// One version of an object, described by one HEAD. Each read is a ranged GET with <c>If-Match</c>
/// on the version's ETag (RGW honours it on GetObject): once the name holds another version the store
/// refuses with 412 and the read fails with an <see cref="IOException"/>, so a download never mixes
/// two versions. The body is streamed from the store's response as the caller reads it, never
/// buffered whole. Nothing is held open between reads.
/// </summary>
internal sealed class S3OpenedObject(BucketClient bucket, string key, StoredObject version) : IOpenedObject
{
    public StoredObject Object { get; } = version;

    /// <summary>No local path: an object store's bytes are only reachable through <see cref="OpenReadAsync"/>.</summary>
    public string? PhysicalPath => null;

    public async ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(offset + count, Object.Size, nameof(count));
        if (count == 0)
        {
            return Stream.Null;
        }

        var request = new GetObjectRequest
        {
            BucketName = bucket.Name,
            Key = key,
            ByteRange = new ByteRange(offset, offset + count - 1),
            EtagToMatch = Object.ETag,
        };
        try
        {
            var response = await bucket.Client.GetObjectAsync(request, cancellationToken);
            return new BodyStream(response, Object.Name, count);
        }
        catch (AmazonS3Exception ex) when (S3Failures.IsPreconditionFailed(ex) || S3Failures.IsNotFound(ex))
        {
            throw new VersionGoneException(Object.Name, Object.ETag, ex);
        }
        catch (FileTransferException ex) when (S3Failures.IsUnavailable(ex))
        {
            // An IOException, as the contract says, that carries the refusal.
            throw new StorageReadException(ex.Message, ex);
        }
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>
    /// The body of one ranged GET: exactly <c>count</c> bytes, or a <see cref="StorageReadException"/>
    /// when the store ends it early, breaks it or stops sending (the client's <see cref="StoreBodyStream"/>
    /// says which). Disposing it releases the response (and its connection).
    /// </summary>
    private sealed class BodyStream(GetObjectResponse response, string name, long count) : ReadOnlyStream
    {
        private readonly Stream _body = response.ResponseStream;
        private long _remaining = count;

        public override int Read(Span<byte> buffer)
        {
            if (_remaining == 0 || buffer.IsEmpty)
            {
                return 0;
            }

            return Advance(_body.Read(buffer[..Wanted(buffer.Length)]));
        }

        // Pooled: a download calls this once per block.
        [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (_remaining == 0 || buffer.IsEmpty)
            {
                return 0;
            }

            return Advance(await _body.ReadAsync(buffer[..Wanted(buffer.Length)], cancellationToken));
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                response.Dispose();
            }

            base.Dispose(disposing);
        }

        private int Wanted(int space) => (int)Math.Min(space, _remaining);

        private int Advance(int read)
        {
            if (read == 0)
            {
                throw new StorageReadException($"The object store ended '{name}' {_remaining} bytes early. Try again.");
            }

            _remaining -= read;
            return read;
        }
    }
}
