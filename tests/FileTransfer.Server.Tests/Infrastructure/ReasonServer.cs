using System.Reflection;
using System.Runtime.ExceptionServices;
using FileTransfer.Core;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The real server on Kestrel whose storage refuses every file under <see cref="Folder"/> with the
/// reason the name spells (<c>reasons/FILE_NOT_FOUND</c>): a download of it over REST or gRPC is
/// answered by the server's own error path (the core's exception, the REST problem, the gRPC
/// interceptor), exactly as a real refusal is. Every reason of this round's issues is in the core
/// now, so none is answered by a stand-in.
/// </summary>
public sealed class ReasonServer : IDisposable
{
    public const string Folder = "reasons/";

    private readonly KestrelFactory _server = new();

    public ReasonServer()
    {
        _server.WithServices(services =>
        {
            var real = services.Last(d => d.ServiceType == typeof(IStorageBackend));
            services.Remove(real);
            services.AddSingleton(sp => RefusingBackend.Wrap(real.ImplementationFactory?.Invoke(sp) as IStorageBackend
                ?? (IStorageBackend)(real.ImplementationInstance ?? ActivatorUtilities.CreateInstance(sp, real.ImplementationType!))));
        });
    }

    /// <summary>Every reason: each of the core's <see cref="ErrorReason"/>.</summary>
    public static IReadOnlyList<string> Reasons { get; } = [.. Enum.GetValues<ErrorReason>().Select(r => r.Code())];

    /// <summary>Every reason paired with each of <paramref name="protocols"/> (however a test names them), for a theory.</summary>
    public static TheoryData<string, T> OnEach<T>(params T[] protocols)
    {
        var cases = new TheoryData<string, T>();
        foreach (var reason in Reasons)
        {
            foreach (var protocol in protocols)
            {
                cases.Add(reason, protocol);
            }
        }

        return cases;
    }

    /// <summary>The file whose download is refused with <paramref name="reason"/>.</summary>
    public static string NameFor(string reason) => Folder + reason;

    public Uri AddressOf(HttpProtocols protocols) => _server.AddressOf(protocols);

    public void Dispose() => _server.Dispose();

    private static string? ReasonOf(string name) => name.StartsWith(Folder, StringComparison.Ordinal) ? name[Folder.Length..] : null;

    private static FileTransferException Refusal(string reason) =>
        new(Enum.GetValues<ErrorReason>().Single(r => r.Code() == reason), $"Refused with {reason} for the test.");

    /// <summary>The real backend, except that opening or describing a file under <see cref="Folder"/> fails with its reason.</summary>
    public class RefusingBackend : DispatchProxy
    {
        private IStorageBackend _inner = null!;

        public static IStorageBackend Wrap(IStorageBackend inner)
        {
            var proxy = Create<IStorageBackend, RefusingBackend>();
            ((RefusingBackend)(object)proxy)._inner = inner;
            return proxy;
        }

        protected override object? Invoke(MethodInfo? method, object?[]? args)
        {
            if (method!.Name is nameof(IStorageBackend.OpenAsync) or nameof(IStorageBackend.StatAsync) && args![0] is string name && ReasonOf(name) is { } reason)
            {
                var refusal = Refusal(reason);
                return method.Name == nameof(IStorageBackend.OpenAsync)
                    ? ValueTask.FromException<IOpenedObject?>(refusal)
                    : ValueTask.FromException<StoredObject?>(refusal);
            }

            try
            {
                return method.Invoke(_inner, args);
            }
            catch (TargetInvocationException e) when (e.InnerException is not null)
            {
                ExceptionDispatchInfo.Throw(e.InnerException);
                throw;
            }
        }
    }
}
