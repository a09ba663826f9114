using System.Reflection;
using FileTransfer.Server.Rest;
using FileTransfer.Server.Security;
using FileTransfer.Server.Tests.Infrastructure;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.Extensions.DependencyInjection;
using Mono.Cecil;

namespace FileTransfer.Server.Tests.Architecture;

/// <summary>
/// tus and the IETF draft are endpoints of their own where they share a route with each other or
/// with a plain upload, chosen by routing from their metadata; no endpoint's handler reads the header
/// fields of a protocol other than its own, nor chooses between protocols (issue 29 item 7).
/// </summary>
public sealed class UploadEndpointTests : IClassFixture<FileTransferFactory>
{
    private readonly FileTransferFactory _factory;

    public UploadEndpointTests(FileTransferFactory factory)
    {
        _factory = factory;
    }

    [Theory]
    [InlineData("HEAD", "api/uploads/{uploadId}", "Tus")]
    [InlineData("PATCH", "api/uploads/{uploadId}", "Tus")]
    [InlineData("DELETE", "api/uploads/{uploadId}", "Tus")]
    [InlineData("PUT", "api/files/{path}", "Plain")]
    [InlineData("POST", "api/files/{path}", "Plain")]
    public void The_Draft_And_The_Protocol_Beside_It_Are_Distinct_Endpoints_With_Their_Metadata(string method, string route, string other)
    {
        var endpoints = RouteEndpoints()
            .Where(e => Shape(e.RoutePattern) == route && e.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods.Contains(method) == true)
            .ToList();

        Assert.Equal(2, endpoints.Count);
        var protocols = endpoints.Select(e => e.Metadata.GetMetadata<UploadProtocolAttribute>()?.Protocol.ToString()).Order().ToList();
        Assert.Equal(new[] { "Draft", other }.Order(), protocols);
        var handlers = endpoints.Select(e => e.Metadata.GetMetadata<MethodInfo>()!.DeclaringType).Distinct().ToList();
        Assert.Equal(2, handlers.Count);

        // The same operation either way: the same scope, as the same kind of caller.
        Assert.Single(endpoints.Select(e => e.Metadata.GetMetadata<OperationAttribute>()!.Operation).Distinct());
    }

    [Fact]
    public void No_Handler_Reads_The_Header_Fields_Of_Another_Protocol_Or_Chooses_One()
    {
        // A protocol's types are its wire spelling and translators (TusProtocol, DraftProtocol, ...).
        // The handlers are those the REST endpoints run, read from the built assembly, so that the
        // rule holds for endpoints added later.
        var module = AssemblyDefinition.ReadAssembly(Path.Combine(AppContext.BaseDirectory, "FileTransfer.Server.dll")).MainModule;
        var violations = new SortedSet<string>(StringComparer.Ordinal);
        var handlers = RouteEndpoints()
            .Select(e => (Method: e.Metadata.GetMetadata<MethodInfo>(), Declared: e.Metadata.GetMetadata<UploadProtocolAttribute>()?.Protocol.ToString()))
            .Where(h => h.Method?.DeclaringType?.Namespace == typeof(UploadProtocol).Namespace)
            .Distinct()
            .ToList();
        foreach (var (method, declared) in handlers)
        {
            var handler = module.GetType(method!.DeclaringType!.FullName).Methods.Single(m => m.Name == method.Name);
            var name = $"{handler.DeclaringType.Name}.{handler.Name}";
            var used = Reached(handler).ToList();
            var spoken = used.Select(ProtocolOf).OfType<string>().Distinct().Order().ToList();
            if (spoken.Count > 1 || (declared is not null && spoken.Any(p => p != declared)))
            {
                violations.Add($"{name} ({declared ?? "no protocol"}) uses types of {string.Join(" and ", spoken)}");
            }

            if (used.OfType<MethodReference>().FirstOrDefault(m => SelectionRules.Contains(m.Name)) is { } rule)
            {
                violations.Add($"{name} chooses a protocol itself: {rule.DeclaringType.Name}.{rule.Name}");
            }
        }

        Assert.True(handlers.Count >= 10, $"only {handlers.Count} handlers read");
        Assert.True(violations.Count == 0, string.Join('\n', violations));
    }

    private List<RouteEndpoint> RouteEndpoints() =>
        [.. _factory.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()];

    // The rules that tell the protocols apart from a request's header fields (and main's old ones).
    private static readonly HashSet<string> SelectionRules = ["NamesInteropVersion", "CreatesUpload", "IsRequest", "TryCreateAsync"];

    // "Tus" or "Draft" for a type of the REST folder named for a protocol, else null.
    private static string? ProtocolOf(MemberReference member)
    {
        var type = member as TypeReference ?? member.DeclaringType;
        while (type?.DeclaringType is not null)
        {
            type = type.DeclaringType;
        }

        return type is null || type.Namespace != typeof(UploadProtocol).Namespace ? null
            : type.Name.StartsWith("Tus", StringComparison.Ordinal) ? "Tus"
            : type.Name.StartsWith("Draft", StringComparison.Ordinal) ? "Draft"
            : null;
    }

    // Every type and member the handler's body reaches: its own IL, its async state machine's, and
    // that of the methods of its own class it calls (a dispatch may hide in a helper).
    private static IEnumerable<MemberReference> Reached(MethodDefinition action)
    {
        var seen = new HashSet<MethodDefinition>();
        var pending = new Stack<MethodDefinition>([action]);
        while (pending.TryPop(out var method))
        {
            if (!seen.Add(method))
            {
                continue;
            }

            foreach (var machine in method.CustomAttributes.Where(a => a.AttributeType.Name == "AsyncStateMachineAttribute").Select(a => (TypeReference)a.ConstructorArguments[0].Value))
            {
                machine.Resolve().Methods.ToList().ForEach(pending.Push);
            }

            foreach (var operand in method.HasBody ? method.Body.Instructions.Select(i => i.Operand).OfType<MemberReference>() : [])
            {
                yield return operand;
                if (operand is MethodReference called && called.DeclaringType.Resolve() is { } declaring && (declaring == action.DeclaringType || declaring.DeclaringType == action.DeclaringType) && called.Resolve() is { } definition)
                {
                    pending.Push(definition);
                }
            }
        }
    }

    // api/files/{**path:minlength(1)} and api/files/{**path} are one route: literals and parameter names.
    private static string Shape(RoutePattern pattern) =>
        string.Join('/', pattern.PathSegments.Select(s => string.Concat(s.Parts.Select(p => p switch
        {
            RoutePatternLiteralPart literal => literal.Content,
            RoutePatternParameterPart parameter => "{" + parameter.Name + "}",
            _ => "",
        }))));
}
