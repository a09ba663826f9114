using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Interop;

/// <summary>
/// The Kreya project opens cleanly: every file parses, every id reference resolves, every REST
/// operation exists in the server's OpenAPI document, and replayed against the server with the
/// project's own authentication it works. gRPC operations: <see cref="KreyaGrpcOperationTests"/>;
/// scripts: <see cref="KreyaScriptTests"/>.
/// </summary>
public sealed class KreyaProjectTests : IDisposable
{
    private readonly FileTransferFactory _factory = new();

    public static TheoryData<string> Operations => [.. KreyaProject.Operations];

    public static TheoryData<string> RestOperations => [.. KreyaProject.RestOperations];

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
        Assert.True(files.Count >= 27, $"{files.Count} files");
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
        var options = KreyaProject.Load("directory.krpref").GetProperty("settings")[0].GetProperty("options");
        Assert.Equal("http://localhost:5000", KreyaProject.Resolve(options.GetProperty("rest").GetProperty("endpoint").GetString()!));
        Assert.Equal("http://localhost:5001", KreyaProject.Resolve(options.GetProperty("grpc").GetProperty("endpoint").GetString()!));
    }

    [Fact]
    public void Directory_Defaults_Authenticate_Rest_And_Grpc_With_The_Api_Key_From_The_Environment()
    {
        var options = KreyaProject.Load("directory.krpref").GetProperty("settings")[0].GetProperty("options");
        var restAuth = options.GetProperty("rest").GetProperty("authId").GetString();
        var grpcAuth = options.GetProperty("grpc").GetProperty("authId").GetString();
        var config = Assert.Single(KreyaProject.Project.GetProperty("authConfigs").EnumerateArray());

        Assert.Equal(config.GetProperty("id").GetString(), restAuth);
        Assert.Equal(restAuth, grpcAuth);
        Assert.Contains("api_key", KreyaProject.EnvironmentVariablesIn(config.GetRawText()));
        Assert.True(KreyaProject.Environment.ContainsKey("api_key"));

        // Set once: no operation overrides the directory default with an auth or header of its own.
        Assert.All(KreyaProject.Operations, o => Assert.False(KreyaProject.Load(o).TryGetProperty("authId", out _), o));
        Assert.All(KreyaProject.RestOperations, o => Assert.DoesNotContain(
            KreyaProject.Load(o).GetProperty("details").GetProperty("headers").EnumerateArray(),
            h => h.GetProperty("key").GetString() is "Authorization" or "X-Api-Key"));

        foreach (var protocol in new[] { "rest", "grpc" })
        {
            Assert.Equal(("Authorization", "Bearer key-0123456789abcdef"), KreyaProject.Authorization(protocol, new Dictionary<string, string> { ["api_key"] = "key-0123456789abcdef" }));
        }
    }

    [Fact]
    public void Every_Environment_Template_Names_A_Variable_Of_Local_Krenv()
    {
        var texts = Directory.EnumerateFiles(KreyaProject.Root, "*", SearchOption.AllDirectories).Select(File.ReadAllText).ToList();
        var used = texts.SelectMany(KreyaProject.EnvironmentVariablesIn).ToHashSet(StringComparer.Ordinal);

        Assert.Subset(KreyaProject.Environment.Keys.ToHashSet(StringComparer.Ordinal), used);
        Assert.Contains("api_key", used);
    }

    [Fact]
    public void Every_Request_And_Script_File_Belongs_To_An_Operation()
    {
        var named = KreyaProject.Operations.SelectMany(KreyaProject.FilesOf).ToHashSet(StringComparer.Ordinal);
        var files = Directory.EnumerateFiles(KreyaProject.Root, "*", SearchOption.AllDirectories)
            .Select(f => Path.GetRelativePath(KreyaProject.Root, f))
            .Where(f => f.Contains("-request", StringComparison.Ordinal) || f.EndsWith(".js", StringComparison.Ordinal));

        Assert.All(files, f => Assert.Contains(f, named));
    }

    [Theory]
    [MemberData(nameof(Operations))]
    public void Operation_References_Resolve(string operationFile)
    {
        var operation = KreyaProject.Load(operationFile);
        var streams = KreyaProject.Project.GetProperty("importStreams").EnumerateArray().ToDictionary(s => s.GetProperty("id").GetString()!);

        var stream = streams[operation.GetProperty("importStreamId").GetString()!];
        Assert.Equal(operation.GetProperty("invokerName").GetString() == "grpc" ? "ProtoFile" : "OpenApiUrlImporter", stream.GetProperty("importerName").GetString());
        Assert.NotEmpty(operation.GetProperty("requests").EnumerateArray());
        Assert.All(KreyaProject.FilesOf(operationFile), f => Assert.True(File.Exists(Path.Combine(KreyaProject.Root, f)), f));
    }

    [Theory]
    [MemberData(nameof(RestOperations))]
    public async Task Rest_Operation_Exists_In_The_Servers_OpenApi_Document(string operationFile)
    {
        var details = KreyaProject.Load(operationFile).GetProperty("details");
        using var client = _factory.CreateClient();
        using var document = JsonDocument.Parse(await client.GetStringAsync("/openapi/v1.json", TestTimeout.Token));

        var path = details.GetProperty("path").GetString()!;
        var method = details.GetProperty("method").GetString()!;
        Assert.True(document.RootElement.GetProperty("paths").TryGetProperty(path, out var item), $"{path} is not in the OpenAPI document");
        Assert.True(item.TryGetProperty(method.ToLowerInvariant(), out _), $"{method} {path} is not in the OpenAPI document");
        Assert.Equal($"{method} {path}", details.GetProperty("importedOperationId").GetString());
    }

    [Theory]
    [MemberData(nameof(RestOperations))]
    public async Task Rest_Operation_Replayed_Against_The_Server_With_The_Projects_Authentication_Succeeds(string operationFile)
    {
        using var response = await ReplayAsync(operationFile, apiKey: FileTransferFactory.TestKey);

        Assert.True(response.IsSuccessStatusCode, $"{operationFile}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync(TestTimeout.Token)}");
    }

    [Fact]
    public async Task Create_Link_Replayed_Issues_A_Link_That_Downloads_The_File()
    {
        using var response = await ReplayAsync(Path.Combine("REST", "Create link.krop"), apiKey: FileTransferFactory.TestKey);
        using var link = JsonDocument.Parse(await response.Content.ReadAsStringAsync(TestTimeout.Token));
        var url = new Uri(link.RootElement.GetProperty("url").GetString()!);

        using var anonymous = AnonymousClient();
        var body = await anonymous.GetByteArrayAsync(url.PathAndQuery, TestTimeout.Token);

        Assert.Equal(KreyaProject.Environment["file_name"], link.RootElement.GetProperty("path").GetString());
        Assert.Equal(FileContent, body);
    }

    [Fact]
    public async Task Upload_Replayed_With_The_Shipped_Placeholder_Key_Is_Refused()
    {
        // The key comes from the environment alone: until the user fills in api_key, writes fail.
        using var response = await ReplayAsync(Path.Combine("REST", "Upload file (PUT).krop"), apiKey: null);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.DoesNotContain(KreyaProject.Environment["upload_name"], _factory.Storage.Files());
    }

    public void Dispose() => _factory.Dispose();

    private static byte[] FileContent => "0123456789 hello from the server"u8.ToArray();

    /// <summary>
    /// Sends an operation as Kreya would: path parameters, headers and body templated from
    /// <c>local.krenv</c> (with <paramref name="apiKey"/> in place of its <c>api_key</c> when given),
    /// and only the authentication the directory defaults add.
    /// </summary>
    private async Task<HttpResponseMessage> ReplayAsync(string operationFile, string? apiKey)
    {
        var environment = KreyaProject.Environment;
        _factory.Storage.Write(environment["file_name"], FileContent);
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
            ? Encoding.UTF8.GetBytes(KreyaProject.Resolve(await File.ReadAllTextAsync(Path.Combine(Path.GetDirectoryName(Path.Combine(KreyaProject.Root, operationFile))!, location.GetString()!), TestTimeout.Token)))
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

        var overrides = apiKey is null ? null : new Dictionary<string, string> { ["api_key"] = apiKey };
        var (authName, authValue) = KreyaProject.Authorization("rest", overrides);
        request.Headers.TryAddWithoutValidation(authName, authValue);

        using var client = AnonymousClient();
        return await client.SendAsync(request, TestTimeout.Token);
    }

    /// <summary>A client without the factory's default key, so that only what a request carries authenticates it.</summary>
    private HttpClient AnonymousClient()
    {
        var client = _factory.CreateClient();
        client.DefaultRequestHeaders.Authorization = null;
        return client;
    }
}
