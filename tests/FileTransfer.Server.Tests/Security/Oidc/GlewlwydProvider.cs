using System.Buffers.Text;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using FileTransfer.Server.Tests.Infrastructure;

namespace FileTransfer.Server.Tests.Security.Oidc;

/// <summary>
/// A real OpenID Connect provider for the token tests: Debian's glewlwyd on a loopback port, with a
/// sqlite database laid out from its own schema, the OIDC plugin signing with an RSA key this fixture
/// made (so that it can also forge hostile tokens with that very key), and confidential clients that
/// get client-credentials tokens for the audience <see cref="Audience"/>.
/// </summary>
public sealed class GlewlwydProvider : IAsyncDisposable
{
    public const string Audience = "https://files.test";
    private const string Schema = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz";

    private readonly string _folder = Directory.CreateTempSubdirectory("ft-glewlwyd-").FullName;
    private readonly HttpClient _http;
    private Process? _process;

    private GlewlwydProvider(int port)
    {
        Port = port;
        _http = new HttpClient(new HttpClientHandler { CookieContainer = new CookieContainer() }) { BaseAddress = new Uri($"http://127.0.0.1:{port}/") };
    }

    public int Port { get; }

    /// <summary>The issuer, which is also where the discovery document is (<c>/.well-known/openid-configuration</c>).</summary>
    public string Authority => $"http://127.0.0.1:{Port}/api/oidc";

    /// <summary>The key the provider signs with now.</summary>
    public RSA Key { get; private set; } = RSA.Create(2048);

    public static async Task<GlewlwydProvider> StartAsync()
    {
        if (!File.Exists("/usr/bin/glewlwyd") || !File.Exists("/usr/bin/sqlite3") || !File.Exists(Schema))
        {
            throw new InvalidOperationException("glewlwyd and sqlite3 are not installed. Run scripts/install-test-deps.sh; .ci/run does before testing.");
        }

        var provider = new GlewlwydProvider(FreePort());
        await provider.StartCoreAsync();
        return provider;
    }

    /// <summary>A confidential client that may ask for <paramref name="scopes"/> with the client-credentials grant.</summary>
    public async Task CreateClientAsync(string clientId, string secret, params string[] scopes)
    {
        var client = new
        {
            client_id = clientId,
            name = clientId,
            confidential = true,
            password = secret,
            client_secret = secret,
            authorization_type = new[] { "client_credentials" },
            token_endpoint_auth_method = new[] { "client_secret_basic" },
            scope = scopes,
            enabled = true,
        };
        using var response = await _http.PostAsJsonAsync("api/client/", client, TestTimeout.Token);
        response.EnsureSuccessStatusCode();
    }

    /// <summary>An access token (a signed JWT) for <paramref name="clientId"/> with <paramref name="scope"/>, from the token endpoint.</summary>
    public async Task<string> TokenAsync(string clientId, string secret, string scope)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "api/oidc/token")
        {
            Content = new FormUrlEncodedContent(new Dictionary<string, string> { ["grant_type"] = "client_credentials", ["scope"] = scope, ["resource"] = Audience }),
        };
        request.Headers.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes($"{clientId}:{secret}")));
        using var response = await _http.SendAsync(request, TestTimeout.Token);
        var body = await response.Content.ReadAsStringAsync(TestTimeout.Token);
        Assert.True(response.IsSuccessStatusCode, $"glewlwyd refused the token request: {(int)response.StatusCode} {body}");
        return JsonNode.Parse(body)!["access_token"]!.GetValue<string>();
    }

    /// <summary>Signs with a new key at the provider (its JWKS then lists only that key): a key rotation.</summary>
    public async Task RotateKeyAsync()
    {
        Key = RSA.Create(2048);
        using var response = await _http.PutAsJsonAsync("api/mod/plugin/oidc", new { module = "oidc", name = "oidc", display_name = "OIDC", enabled = true, parameters = Parameters() }, TestTimeout.Token);
        response.EnsureSuccessStatusCode();
        using var reset = await _http.PutAsync("api/mod/plugin/oidc/reset", null, TestTimeout.Token); // the instance starts again with the new key
        reset.EnsureSuccessStatusCode();
    }

    /// <summary>The id (<c>kid</c>) of the key the provider publishes now.</summary>
    public async Task<string> KeyIdAsync() =>
        JsonNode.Parse(await _http.GetStringAsync("api/oidc/jwks", TestTimeout.Token))!["keys"]![0]!["kid"]!.GetValue<string>();

    /// <summary>
    /// A JWS of <paramref name="claims"/> with <paramref name="header"/>, signed RS256 with <paramref name="key"/>
    /// (the provider's own by default): what a forger, or the provider itself, could make.
    /// </summary>
    public string Sign(object header, object claims, RSA? key = null)
    {
        var signingInput = Encode(header) + "." + Encode(claims);
        var signature = (key ?? Key).SignData(Encoding.ASCII.GetBytes(signingInput), HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        return signingInput + "." + Base64Url.EncodeToString(signature);
    }

    public static string Encode(object value) => Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(value));

    public async ValueTask DisposeAsync()
    {
        if (_process is { HasExited: false })
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync(CancellationToken.None);
        }

        _process?.Dispose();
        _http.Dispose();
        Key.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    private async Task StartCoreAsync()
    {
        var database = Path.Join(_folder, "glewlwyd.db");
        await RunAsync("bash", "-c", $"zcat {Schema} | sqlite3 '{database}'");
        var setup = Path.Join(_folder, "setup.sql");
        await File.WriteAllTextAsync(setup, $"""
            INSERT INTO g_plugin_module_instance (gpmi_module, gpmi_name, gpmi_display_name, gpmi_parameters) VALUES ('oidc', 'oidc', 'OIDC', '{Parameters().ToJsonString().Replace("'", "''", StringComparison.Ordinal)}');
            INSERT INTO g_scope (gs_name, gs_display_name, gs_password_required, gs_password_max_age) VALUES ('files:read', 'read', 0, 0), ('files:write', 'write', 0, 0), ('files:delete', 'delete', 0, 0);
            """);
        await RunAsync("bash", "-c", $"sqlite3 '{database}' < '{setup}'");

        var config = Path.Join(_folder, "glewlwyd.conf");
        var lines = (await File.ReadAllLinesAsync("/etc/glewlwyd/glewlwyd.conf")).Select(line =>
            line.StartsWith("port=", StringComparison.Ordinal) ? $"port={Port}"
            : line.StartsWith("external_url=", StringComparison.Ordinal) ? $"external_url=\"http://127.0.0.1:{Port}\""
            : line.StartsWith("log_mode=", StringComparison.Ordinal) ? "log_mode=\"console\""
            : line.StartsWith("log_level=", StringComparison.Ordinal) ? "log_level=\"WARNING\""
            : line.StartsWith("@include", StringComparison.Ordinal) ? $"database = {{ type = \"sqlite3\"\n path = \"{database}\" }};"
            : line);
        await File.WriteAllLinesAsync(config, lines);

        _process = Process.Start(new ProcessStartInfo("glewlwyd", [$"--config-file={config}"]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        _process.OutputDataReceived += (_, _) => { };
        _process.ErrorDataReceived += (_, _) => { };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        while (true)
        {
            try
            {
                using var discovery = await _http.GetAsync("api/oidc/.well-known/openid-configuration", TestTimeout.Token);
                if (discovery.IsSuccessStatusCode)
                {
                    break;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            Assert.False(_process.HasExited, "glewlwyd stopped at start");
            await Task.Delay(50, TestTimeout.Token);
        }

        using var login = await _http.PostAsJsonAsync("api/auth/", new { username = "admin", password = "password" }, TestTimeout.Token);
        login.EnsureSuccessStatusCode();
    }

    // The OIDC plugin: RS256 with this fixture's key, client-credentials only, the subject as the
    // client id (public), and an audience per scope (resource indicators, RFC 8707).
    private JsonObject Parameters()
    {
        using var certificate = new CertificateRequest("CN=glewlwyd-test", Key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)
            .CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(2));
        string[] audience = [Audience];
        return new JsonObject
        {
            ["iss"] = Authority,
            ["jwt-type"] = "rsa",
            ["jwt-key-size"] = "256",
            ["key"] = Key.ExportPkcs8PrivateKeyPem(),
            ["cert"] = certificate.ExportCertificatePem(),
            ["access-token-duration"] = 3600,
            ["allow-non-oidc"] = true,
            ["auth-type-code-enabled"] = false,
            ["auth-type-token-enabled"] = false,
            ["auth-type-none-enabled"] = false,
            ["auth-type-password-enabled"] = false,
            ["auth-type-client-enabled"] = true,
            ["auth-type-device-enabled"] = false,
            ["auth-type-refresh-enabled"] = false,
            ["jwks-show"] = true,
            ["subject-type"] = "public",
            ["resource-allowed"] = true,
            ["resource-scope"] = new JsonObject
            {
                ["files:read"] = JsonSerializer.SerializeToNode(audience),
                ["files:write"] = JsonSerializer.SerializeToNode(audience),
                ["files:delete"] = JsonSerializer.SerializeToNode(audience),
            },
        };
    }

    private static async Task RunAsync(string file, params string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(file, arguments) { RedirectStandardError = true })!;
        var error = await process.StandardError.ReadToEndAsync(TestTimeout.Token);
        await process.WaitForExitAsync(TestTimeout.Token);
        Assert.True(process.ExitCode == 0, $"{file} {string.Join(' ', arguments)}: {error}");
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
