using System.Reflection;
using System.Runtime.ExceptionServices;
using FileTransfer.Core;
using FileTransfer.Server.Protocol;
using Any = Google.Protobuf.WellKnownTypes.Any;
using Google.Rpc;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;

namespace FileTransfer.Server.Tests.Infrastructure;

/// <summary>
/// The real server on Kestrel whose storage refuses every file under <see cref="Folder"/> with the
/// reason the name spells (<c>reasons/FILE_NOT_FOUND</c>): a download of it over REST or gRPC is
/// answered by the server's own error path (the core's exception, the REST problem, the gRPC
/// interceptor), exactly as a real refusal is. Reasons announced by this round's issues that the
/// core does not have yet (<see cref="Announced"/>) are answered with their announced status by a
/// stand-in until the core gains them; from then on the real path answers them too.
/// </summary>
public sealed class ReasonServer : IDisposable
{
    public const string Folder = "reasons/";

    /// <summary>Reasons other issues of this round add to the server, with the REST and gRPC status they announce.</summary>
    public static readonly IReadOnlyDictionary<string, (int Status, StatusCode Grpc)> Announced =
        new Dictionary<string, (int, StatusCode)>
        {
            ["QUOTA_EXCEEDED"] = (507, StatusCode.ResourceExhausted),
            ["TOO_MANY_UPLOADS"] = (429, StatusCode.ResourceExhausted),
            ["UPLOAD_CANCELLED"] = (409, StatusCode.Aborted),
            ["UPLOAD_REJECTED"] = (403, StatusCode.PermissionDenied),
            ["HOOK_UNAVAILABLE"] = (503, StatusCode.Unavailable),
        };

    private readonly KestrelFactory _server = new();

    public ReasonServer()
    {
        _server.WithServices(services =>
        {
            var real = services.Last(d => d.ServiceType == typeof(IStorageBackend));
            services.Remove(real);
            services.AddSingleton(sp => RefusingBackend.Wrap(real.ImplementationFactory?.Invoke(sp) as IStorageBackend
                ?? (IStorageBackend)(real.ImplementationInstance ?? ActivatorUtilities.CreateInstance(sp, real.ImplementationType!))));
            services.AddSingleton<IStartupFilter, AnnouncedOverRest>();
        });
    }

    /// <summary>Every reason: each of the core's <see cref="ErrorReason"/> and each <see cref="Announced"/> one it does not have yet.</summary>
    public static IReadOnlyList<string> Reasons { get; } =
        [.. Enum.GetValues<ErrorReason>().Select(r => r.Code()), .. Announced.Keys.Where(IsAnnouncedOnly)];

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

    private static bool IsAnnouncedOnly(string reason) => Enum.GetValues<ErrorReason>().All(r => r.Code() != reason);

    private static string? ReasonOf(string name) => name.StartsWith(Folder, StringComparison.Ordinal) ? name[Folder.Length..] : null;

    private static Exception Refusal(string reason)
    {
        var known = Enum.GetValues<ErrorReason>().Where(r => r.Code() == reason).Select(r => (ErrorReason?)r).FirstOrDefault();
        if (known is { } core)
        {
            return new FileTransferException(core, $"Refused with {reason} for the test.");
        }

        var status = new Google.Rpc.Status
        {
            Code = (int)Announced[reason].Grpc,
            Message = $"Refused with {reason} for the test.",
            Details = { Any.Pack(new ErrorInfo { Reason = reason, Domain = GrpcErrors.Domain }) },
        };
        return status.ToRpcException();
    }

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

    // A reason the core does not have yet cannot be thrown through it: REST answers it the way the
    // server's error table answers every reason (problem+json, status, the reason member).
    private sealed class AnnouncedOverRest : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.Use(async (context, nextStep) =>
            {
                var path = context.Request.Path.Value ?? string.Empty;
                const string Prefix = "/api/files/" + Folder;
                if (path.StartsWith(Prefix, StringComparison.Ordinal) && path[Prefix.Length..] is var reason && Announced.ContainsKey(reason) && IsAnnouncedOnly(reason))
                {
                    context.Response.StatusCode = Announced[reason].Status;
                    await context.Response.WriteAsJsonAsync(
                        new Dictionary<string, object> { ["status"] = Announced[reason].Status, ["title"] = reason, ["detail"] = $"Refused with {reason} for the test.", [HttpErrors.ReasonMember] = reason },
                        (System.Text.Json.JsonSerializerOptions?)null, "application/problem+json", context.RequestAborted);
                    return;
                }

                await nextStep(context);
            });
            next(app);
        };
    }
}
