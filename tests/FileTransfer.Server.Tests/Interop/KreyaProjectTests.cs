using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.Json;
using FileTransfer.Protos.V1;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The Kreya project opens cleanly: every file parses, every id reference resolves, every REST
/// operation exists in the server's OpenAPI document, and replayed against the server it works.
/// </summary>
public sealed class KreyaProjectTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();

    public static TheoryData<string> Operations => [.. KreyaProject.Operations];

    [Fact]
    public void Every_File_Parses_And_Every_Id_Is_A_Unique_Guid()
    {
        var files = Directory.EnumerateFiles(KreyaProject.Root, "*", SearchOption.AllDirectories)
            .Where(f => Path.GetExtension(f) is ".krproj" or ".krenv" or ".krpref" or ".krop" or ".json").ToList();
        var project = KreyaProject.Project;
        var ids = new List<string> { project.GetProperty("id").GetString()! };
        ids.AddRange(project.GetProperty("importStreams").EnumerateArray().Select(s => s.GetProperty("id").GetString()!));
        ids.AddRange(project.GetProperty("authConfigs").EnumerateArray().Select(a => a.GetProperty("id").GetString()!));
        ids.AddRange(Directory.EnumerateFiles(KreyaProject.Root, "*.krenv").Select(e => KreyaProject.Load(e).GetProperty("id").GetString()!));

        Assert.All(files, f => KreyaProject.Load(f));
        Assert.True(files.Count >= 13, $"{files.Count} files");
        Assert.All(ids, id => Assert.True(Guid.TryParse(id, out _), id));
        Assert.Equal(ids.Count, ids.Distinct(StringComparer.OrdinalIgnoreCase).Count());
    }

    [Fact]
    public void Importers_Point_At_The_Protos_And_The_Local_OpenApi_Document()
    {
        var streams = KreyaProject.Project.GetProperty("importStreams").EnumerateArray().ToList();

        var protos = Assert.Single(streams, s => s.GetProperty("importerName").GetString() == "ProtoFile");
        foreach (var directory in protos.GetProperty("options").GetProperty("protoDirectories").EnumerateArray())
        {
            var full = Path.GetFullPath(Path.Combine(KreyaProject.Root, directory.GetString()!));
            Assert.True(File.Exists(Path.Combine(full, "filetransfer", "v1", "file_service.proto")), full);
        }

        var openApi = Assert.Single(streams, s => s.GetProperty("importerName").GetString() == "OpenApiUrlImporter");
        Assert.Equal("http://localhost:5000/openapi/v1.json", KreyaProject.Resolve(openApi.GetProperty("options").GetProperty("url").GetString()!));
        var rest = KreyaProject.Load("directory.krpref").GetProperty("settings")[0].GetProperty("options").GetProperty("rest");
        Assert.Equal("http://localhost:5000", KreyaProject.Resolve(rest.GetProperty("endpoint").GetString()!));
    }

    [Theory]
    [MemberData(nameof(Operations))]
    public async Task Operation_References_Resolve_And_Exist_In_The_Servers_Contracts(string operationFile)
    {
        var operation = KreyaProject.Load(operationFile);
        var folder = Path.GetDirectoryName(Path.Combine(KreyaProject.Root, operationFile))!;
        var streams = KreyaProject.Project.GetProperty("importStreams").EnumerateArray().ToDictionary(s => s.GetProperty("id").GetString()!);

        Assert.True(streams.ContainsKey(operation.GetProperty("importStreamId").GetString()!));
        if (operation.TryGetProperty("authId", out var authId))
        {
            Assert.Contains(KreyaProject.Project.GetProperty("authConfigs").EnumerateArray(), a => a.GetProperty("id").GetString() == authId.GetString());
        }

        if (operation.TryGetProperty("script", out var script))
        {
            Assert.True(File.Exists(Path.Combine(folder, script.GetProperty("src").GetString()!)));
        }

        foreach (var request in operation.GetProperty("requests").EnumerateArray().Where(r => r.TryGetProperty("location", out _)))
        {
            Assert.True(File.Exists(Path.Combine(folder, request.GetProperty("location").GetString()!)));
        }

        var details = operation.GetProperty("details");
        if (operation.GetProperty("invokerName").GetString() == "grpc")
        {
            // gRPC operations come with the gRPC service; each must name a method of the compiled contract.
            var fqn = details.GetProperty("methodFqn").GetString()!;
            Assert.Contains(FileServiceReflection.Descriptor.Services.SelectMany(s => s.Methods), m => $"{m.Service.FullName}.{m.Name}" == fqn);
            return;
        }

        using var client = _factory.CreateClient();
        using var document = JsonDocument.Parse(await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token));
        var path = details.GetProperty("path").GetString()!;
        var method = details.GetProperty("method").GetString()!.ToLowerInvariant();
        Assert.True(document.RootElement.GetProperty("paths").TryGetProperty(path, out var item), $"{path} is not in the OpenAPI document");
        Assert.True(item.TryGetProperty(method, out _), $"{method.ToUpperInvariant()} {path} is not in the OpenAPI document");
    }

    [Theory]
    [MemberData(nameof(Operations))]
    public async Task Operation_Replayed_Against_The_Server_Succeeds(string operationFile)
    {
        var environment = KreyaProject.Environment;
        _factory.Storage.Write(environment["file_name"], "0123456789 hello from the server"u8.ToArray());
        if (operationFile.Contains("Delete", StringComparison.Ordinal))
        {
            _factory.Storage.Write(environment["upload_name"], [1, 2, 3]);
        }

        var operation = KreyaProject.Load(operationFile);
        var details = operation.GetProperty("details");
        var path = details.GetProperty("path").GetString()!;
        foreach (var parameter in details.GetProperty("pathParams").EnumerateArray())
        {
            path = path.Replace("{" + parameter.GetProperty("key").GetString() + "}", Uri.EscapeDataString(KreyaProject.Resolve(parameter.GetProperty("value").GetString()!)), StringComparison.Ordinal);
        }

        using var request = new HttpRequestMessage(new HttpMethod(details.GetProperty("method").GetString()!), path);
        var body = operation.GetProperty("requests")[0].TryGetProperty("location", out var location)
            ? await File.ReadAllBytesAsync(Path.Combine(Path.GetDirectoryName(Path.Combine(KreyaProject.Root, operationFile))!, location.GetString()!), TestTimeout.Token)
            : null;
        if (body is not null)
        {
            request.Content = new ByteArrayContent(body);
        }

        foreach (var header in details.GetProperty("headers").EnumerateArray())
        {
            var (name, value) = (header.GetProperty("key").GetString()!, KreyaProject.Resolve(header.GetProperty("value").GetString()!));
            if (name == "Content-Type")
            {
                request.Content!.Headers.ContentType = MediaTypeHeaderValue.Parse(value);
            }
            else if (name == "Content-Digest")
            {
                Assert.Equal($"sha-256=:{Convert.ToBase64String(SHA256.HashData(body!))}:", value);
                request.Headers.TryAddWithoutValidation(name, value);
            }
            else
            {
                request.Headers.TryAddWithoutValidation(name, value);
            }
        }

        using var client = _factory.CreateClient();
        using var response = await client.SendAsync(request, TestTimeout.Token);

        Assert.True(response.IsSuccessStatusCode, $"{operationFile}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(TestTimeout.Token)}");
    }

    public void Dispose() => _factory.Dispose();
}
