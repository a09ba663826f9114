using System.Xml.Linq;
using FileTransfer.Core;
using FileTransfer.Server.Hosting;
using FileTransfer.Server.Tests.Infrastructure;
using FileTransfer.Storage.Local;
using FileTransfer.Storage.S3;
using Mono.Cecil;

namespace FileTransfer.Server.Tests.Architecture;

/// <summary>
/// Dependencies point one way: core ← backends ← protocol adapters ← hosting. Read from the built
/// assemblies (their references, and every type, member, signature, attribute and IL operand of the
/// server), so that a new reference in the wrong direction fails the build's tests, whatever file it
/// is written in.
/// </summary>
public sealed class LayeringTests
{
    // The server's folders, lowest first: each may use its own folder and those before it, never one after.
    // Rest and Grpc share a rank: neither may use the other.
    private static readonly (string Namespace, int Rank)[] ServerLayers =
    [
        ("FileTransfer.Protos.V1", 0), // the generated contract (and its pooled-chunk partial)
        ("FileTransfer.Server.Protocol", 1),
        ("FileTransfer.Server.Diagnostics", 2),
        ("FileTransfer.Server.Security", 3),
        ("FileTransfer.Server.Rest", 4),
        ("FileTransfer.Server.Grpc", 4),
        ("FileTransfer.Server.OpenApi", 5),
        ("FileTransfer.Server.Web", 5), // the web page's files and headers: uses none of the folders
        ("FileTransfer.Server.Hosting", 6),
    ];

    // Every backend project under src/, found by its name: a new backend is held to the same rules
    // without anyone remembering to list it here.
    private static readonly string[] Backends =
        [.. Directory.GetDirectories(Path.Combine(RepositoryPaths.Root, "src"), "FileTransfer.Storage.*").Select(Path.GetFileName).OfType<string>().Order(StringComparer.Ordinal)];

    private const string Registration = "FileTransfer.Core.StorageBackendRegistration";

    public static TheoryData<string> CoreAndBackends() => ["FileTransfer.Core", .. Backends];

    [Fact]
    public void The_Backends_Are_Found_In_The_Source_Tree()
    {
        Assert.Contains("FileTransfer.Storage.Local", Backends);
        Assert.Contains("FileTransfer.Storage.S3", Backends);
    }

    [Theory]
    [MemberData(nameof(CoreAndBackends))]
    public void The_Core_And_The_Backends_Do_Not_Reference_AspNetCore(string project)
    {
        var references = Assembly(project).MainModule.AssemblyReferences.Select(r => r.Name).ToList();

        Assert.DoesNotContain(references, name => name.StartsWith("Microsoft.AspNetCore", StringComparison.Ordinal) || name.StartsWith("FileTransfer.Server", StringComparison.Ordinal));
        var csproj = XDocument.Load(Path.Combine(RepositoryPaths.Root, "src", project, project + ".csproj"));
        Assert.Empty(csproj.Descendants("FrameworkReference"));
        Assert.Equal("Microsoft.NET.Sdk", csproj.Root!.Attribute("Sdk")!.Value);
    }

    [Fact]
    public void The_Core_References_No_Backend_And_A_Backend_No_Other_Backend()
    {
        Assert.DoesNotContain(Assembly("FileTransfer.Core").MainModule.AssemblyReferences, r => r.Name.StartsWith("FileTransfer.", StringComparison.Ordinal));
        Assert.All(Backends, backend =>
            Assert.Equal(["FileTransfer.Core"], Assembly(backend).MainModule.AssemblyReferences.Select(r => r.Name).Where(n => n.StartsWith("FileTransfer.", StringComparison.Ordinal))));
    }

    [Fact]
    public void The_Server_Takes_Nothing_From_A_Backend_But_Its_Registration_And_Only_The_Host_Takes_That()
    {
        // A backend is a plug-in: the host picks one of the registrations the backend projects
        // supply (a static property of type StorageBackendRegistration) and asks it what it is. Any
        // other use of a backend's types (or of the S3 SDK) from the server is a rule written for
        // one backend by name.
        var module = Assembly("FileTransfer.Server").MainModule;
        var violations = new SortedSet<string>(StringComparer.Ordinal);
        var users = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var type in module.GetTypes())
        {
            foreach (var used in ReferencedTypes(type).Where(used => Backends.Contains(used.Scope.Name) || used.Scope.Name.StartsWith("AWSSDK", StringComparison.Ordinal)))
            {
                users.Add(RankOf(type)?.Namespace ?? type.FullName);
                if (used.Scope.Name.StartsWith("AWSSDK", StringComparison.Ordinal))
                {
                    violations.Add($"{type.FullName} uses {used.FullName} of the S3 SDK");
                }
            }

            foreach (var member in ReferencedMembers(type).Where(m => Backends.Contains(m.DeclaringType.Scope.Name)))
            {
                if (member is not MethodReference { Name: var name, ReturnType.FullName: Registration, HasThis: false } || !name.StartsWith("get_", StringComparison.Ordinal))
                {
                    violations.Add($"{type.FullName} uses {member.FullName}, which is not a backend's registration");
                }
            }
        }

        Assert.True(violations.Count == 0, string.Join('\n', violations));
        Assert.Equal(["FileTransfer.Server.Hosting"], users);
        Assert.DoesNotContain(Assembly("FileTransfer.Core").MainModule.AssemblyReferences, r => r.Name.StartsWith("AWSSDK", StringComparison.Ordinal));
        Assert.All(Backends.Where(b => b != "FileTransfer.Storage.S3"), backend =>
            Assert.DoesNotContain(Assembly(backend).MainModule.AssemblyReferences, r => r.Name.StartsWith("AWSSDK", StringComparison.Ordinal)));
    }

    [Fact]
    public void Every_Backend_Supplies_One_Registration_And_The_Host_Offers_Each_By_Its_Own_Name()
    {
        var offered = StorageBackendSelection.Available;
        foreach (var backend in Backends)
        {
            var supplied = System.Reflection.Assembly.Load(backend).GetExportedTypes()
                .SelectMany(type => type.GetProperties(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static))
                .Where(property => property.PropertyType == typeof(StorageBackendRegistration))
                .Select(property => (StorageBackendRegistration)property.GetValue(null)!)
                .ToList();
            Assert.Contains(Assert.Single(supplied), offered);
        }

        Assert.Equal(Backends.Length, offered.Count);
        Assert.Equal(offered.Count, offered.Select(b => b.Name.ToUpperInvariant()).Distinct().Count());
        Assert.Same(LocalStorageRegistration.Backend, StorageBackendSelection.Choose(null));
        Assert.Same(S3StorageRegistration.Backend, StorageBackendSelection.Choose("s3"));
    }

    [Fact]
    public void The_Servers_Folders_Depend_Only_On_Folders_Below_Them()
    {
        var module = Assembly("FileTransfer.Server").MainModule;
        var violations = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var type in module.GetTypes())
        {
            var from = RankOf(type);
            if (from is null)
            {
                continue;
            }

            foreach (var used in ReferencedTypes(type))
            {
                var to = RankOf(used);
                if (to is not null && (to.Value.Rank > from.Value.Rank || (to.Value.Rank == from.Value.Rank && to.Value.Namespace != from.Value.Namespace)))
                {
                    violations.Add($"{from.Value.Namespace} -> {to.Value.Namespace}: {type.FullName} uses {used.FullName}");
                }
            }
        }

        Assert.True(violations.Count == 0, string.Join('\n', violations));
    }

    [Fact]
    public void The_Layering_Test_Sees_References_In_Method_Bodies()
    {
        // Guard against a scan that reads nothing: the host's registration calls into every folder.
        var hosting = Assembly("FileTransfer.Server").MainModule.GetType("FileTransfer.Server.Hosting.FileTransferServiceCollectionExtensions");
        var namespaces = ReferencedTypes(hosting).Select(t => RankOf(t)?.Namespace).OfType<string>().ToHashSet();

        Assert.Contains("FileTransfer.Server.Rest", namespaces);
        Assert.Contains("FileTransfer.Server.Grpc", namespaces);
    }

    private static AssemblyDefinition Assembly(string name) =>
        AssemblyDefinition.ReadAssembly(Path.Combine(AppContext.BaseDirectory, name + ".dll"));

    // A nested type (compiler-generated state machines and closures included) belongs to its outermost type's folder.
    private static (string Namespace, int Rank)? RankOf(TypeReference type)
    {
        while (type.DeclaringType is not null)
        {
            type = type.DeclaringType;
        }

        var ns = type.Namespace;
        if (ns.Length == 0 && type.Name == "Program")
        {
            return ("FileTransfer.Server.Hosting", 6);
        }

        foreach (var layer in ServerLayers)
        {
            if (ns == layer.Namespace || ns.StartsWith(layer.Namespace + ".", StringComparison.Ordinal))
            {
                return layer;
            }
        }

        return null;
    }

    // The members a type's method bodies call or load (nested types, lambdas and state machines included).
    private static IEnumerable<MemberReference> ReferencedMembers(TypeDefinition type) =>
        type.Methods.Where(m => m.HasBody)
            .SelectMany(m => m.Body.Instructions.Select(i => i.Operand).OfType<MemberReference>().Where(o => o is MethodReference or FieldReference))
            .Concat(type.NestedTypes.SelectMany(ReferencedMembers));

    private static IEnumerable<TypeReference> ReferencedTypes(TypeDefinition type)
    {
        var found = new List<TypeReference>();
        void Add(TypeReference? reference)
        {
            switch (reference)
            {
                case null or GenericParameter:
                    return;
                case GenericInstanceType generic:
                    Add(generic.ElementType);
                    generic.GenericArguments.ToList().ForEach(Add);
                    return;
                case TypeSpecification specification:
                    Add(specification.ElementType);
                    return;
                default:
                    found.Add(reference);
                    return;
            }
        }

        void AddMember(MemberReference member)
        {
            Add(member.DeclaringType);
            switch (member)
            {
                case MethodReference method:
                    Add(method.ReturnType);
                    method.Parameters.ToList().ForEach(p => Add(p.ParameterType));
                    if (method is GenericInstanceMethod generic)
                    {
                        generic.GenericArguments.ToList().ForEach(Add);
                    }

                    break;
                case FieldReference field:
                    Add(field.FieldType);
                    break;
            }
        }

        void AddAttributes(ICustomAttributeProvider provider)
        {
            foreach (var attribute in provider.CustomAttributes)
            {
                AddMember(attribute.Constructor);
                attribute.ConstructorArguments.Select(a => a.Value).OfType<TypeReference>().ToList().ForEach(Add);
            }
        }

        Add(type.BaseType);
        type.Interfaces.ToList().ForEach(i => Add(i.InterfaceType));
        AddAttributes(type);
        foreach (var field in type.Fields)
        {
            Add(field.FieldType);
            AddAttributes(field);
        }

        foreach (var property in type.Properties)
        {
            Add(property.PropertyType);
            AddAttributes(property);
        }

        foreach (var method in type.Methods)
        {
            AddMember(method);
            AddAttributes(method);
            if (!method.HasBody)
            {
                continue;
            }

            method.Body.Variables.ToList().ForEach(v => Add(v.VariableType));
            foreach (var instruction in method.Body.Instructions)
            {
                switch (instruction.Operand)
                {
                    case TypeReference operandType:
                        Add(operandType);
                        break;
                    case MemberReference operandMember:
                        AddMember(operandMember);
                        break;
                }
            }
        }

        foreach (var nested in type.NestedTypes)
        {
            found.AddRange(ReferencedTypes(nested));
        }

        return found;
    }
}
