namespace FileTransfer.Core.Tests.Infrastructure;

internal sealed partial class InMemoryBackend
{
    private int _reads;

    /// <summary>Byte streams opened from any opened version.</summary>
    public int Reads => Volatile.Read(ref _reads);

    /// <summary>One version, opened: it holds that version's bytes, which no later write changes.</summary>
    private sealed class OpenedBytes(InMemoryBackend backend, Entry entry) : IOpenedObject
    {
        private int _disposed;

        public StoredObject Object => entry.Version;

        public string? PhysicalPath => null;

        public ValueTask<Stream> OpenReadAsync(long offset, long count, CancellationToken cancellationToken)
        {
            ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
            ArgumentOutOfRangeException.ThrowIfNegative(offset);
            ArgumentOutOfRangeException.ThrowIfNegative(count);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(offset + count, entry.Bytes.LongLength, nameof(count));
            Interlocked.Increment(ref backend._reads);
            return ValueTask.FromResult<Stream>(new MemoryStream(entry.Bytes, (int)offset, (int)count, writable: false));
        }

        public ValueTask DisposeAsync()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                Interlocked.Decrement(ref backend._liveOpens);
            }

            return ValueTask.CompletedTask;
        }
    }

    /// <summary>A write on its way in: the bytes, each write's size (to see how the core cut them), and its state.</summary>
    internal sealed class StagedBytes(InMemoryBackend backend, string name, long? declaredLength) : IStagedObject
    {
        private readonly Lock _gate = new();
        private readonly List<int> _writes = [];
        private MemoryStream? _bytes = new();
        private bool _sealed;
        private bool _committed;

        public string Name => name;

        /// <summary>The length the core declared when it began the write.</summary>
        public long? DeclaredLength => declaredLength;

        public long Length { get; private set; }

        /// <summary>The size of each <see cref="WriteAsync"/>, in order.</summary>
        public IReadOnlyList<int> Writes
        {
            get
            {
                lock (_gate)
                {
                    return _writes.ToArray();
                }
            }
        }

        public bool IsSealed
        {
            get
            {
                lock (_gate)
                {
                    return _sealed;
                }
            }
        }

        public bool IsCommitted
        {
            get
            {
                lock (_gate)
                {
                    return _committed;
                }
            }
        }

        /// <summary>Disposed without a commit: its bytes are gone.</summary>
        public bool IsDiscarded
        {
            get
            {
                lock (_gate)
                {
                    return _bytes is null && !_committed;
                }
            }
        }

        internal InMemoryBackend Backend => backend;

        public ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            lock (_gate)
            {
                ObjectDisposedException.ThrowIf(_bytes is null, this);
                if (_sealed)
                {
                    throw new InvalidOperationException("The staged write is sealed: its body has ended.");
                }

                _bytes.Write(bytes.Span);
                _writes.Add(bytes.Length);
                Length += bytes.Length;
            }

            return ValueTask.CompletedTask;
        }

        public ValueTask SealAsync(CancellationToken cancellationToken)
        {
            lock (_gate)
            {
                _sealed = true;
            }

            return ValueTask.CompletedTask;
        }

        public ValueTask DisposeAsync()
        {
            lock (_gate)
            {
                _bytes = null;
            }

            return ValueTask.CompletedTask;
        }

        /// <summary>Refuses a commit of a write that is disposed, committed already, or still open for bytes.</summary>
        internal void EnsureCommittable()
        {
            lock (_gate)
            {
                ObjectDisposedException.ThrowIf(_bytes is null, this);
                if (_committed || !_sealed)
                {
                    throw new InvalidOperationException(_committed ? "The staged write is committed already." : "The staged write is not sealed.");
                }
            }
        }

        /// <summary>The bytes, for the commit that makes them a version; the write is committed from here on.</summary>
        internal byte[] TakeBytes()
        {
            lock (_gate)
            {
                _committed = true;
                return _bytes!.ToArray();
            }
        }
    }
}
