using System.Diagnostics;

namespace FileTransfer.Benchmarks.E2E.Infrastructure;

/// <summary>
/// nginx (the Debian package) as a non-daemon child, configured the way one serves big static
/// files: sendfile, HTTP/1.1 on one port and h2c on another, WebDAV PUT (temp file + rename)
/// with its temp folder on the same file system as the root. Two of them run: <c>access_log off</c>
/// ("nginx") and a buffered access log ("nginx-log"), which pays for a line per request as our
/// server's default logging does for a line per transfer.
/// </summary>
internal sealed class NginxServer : ServerUnderTest
{
    public const string Plain = "nginx";
    public const string Logging = "nginx-log";

    private string _errorLog = "";
    private string _accessLog = "";

    private NginxServer(string name, string rootPath)
        : base(name, rootPath)
    {
    }

    public override string ConfigurationFileName => Name + ".conf";

    /// <summary>The error log and (nginx-log) the access log's size.</summary>
    public override string Log() =>
        (File.Exists(_errorLog) ? File.ReadAllText(_errorLog) : "")
        + (File.Exists(_accessLog) ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"\n(access.log: {new FileInfo(_accessLog).Length:N0} bytes)\n") : "");

    /// <summary>
    /// How often nginx has closed an HTTP/2 connection as a "flood" so far (logged at info level).
    /// nginx 1.22 guards against clients whose control frames (WINDOW_UPDATE, PING, SETTINGS)
    /// outweigh their payload; a download client that only reads and acknowledges can trip it now
    /// and then on loopback, and the case then fails through no fault of the bytes.
    /// </summary>
    public int FloodClosures() => File.Exists(_errorLog) ? File.ReadLines(_errorLog).Count(l => l.Contains("flood detected", StringComparison.Ordinal)) : 0;

    /// <summary>The last lines of nginx's error log, to explain a failed case.</summary>
    public string ErrorLogTail() => File.Exists(_errorLog) ? string.Join('\n', File.ReadLines(_errorLog).TakeLast(5)) : "";

    public static async Task<NginxServer> StartAsync(string executable, string prefix, string rootPath, bool accessLog)
    {
        var server = new NginxServer(accessLog ? Logging : Plain, rootPath)
        {
            _errorLog = Path.Combine(prefix, "logs", "error.log"),
            _accessLog = accessLog ? Path.Combine(prefix, "logs", "access.log") : "",
        };
        var (http1, http2) = (FreePort(), FreePort());
        var temp = Path.Combine(rootPath, ".nginx-body");
        Directory.CreateDirectory(Path.Combine(prefix, "logs"));
        Directory.CreateDirectory(temp);

        // Workers run as an unprivileged user when the master is root: they must be able to write uploads.
        foreach (var dir in new[] { rootPath, temp, Path.Combine(rootPath, "bench") })
        {
            Directory.CreateDirectory(dir);
            File.SetUnixFileMode(dir, (UnixFileMode)0b111_111_111);
        }

        // Debian's default log format, buffered as a busy site configures it (nginx docs, ngx_http_log_module).
        var log = accessLog ? $"access_log {server._accessLog} combined buffer=64k flush=1s;" : "access_log off;";
        var config = Path.Combine(prefix, "nginx.conf");
        server.Configuration = $$"""
            daemon off;
            worker_processes auto;
            pid {{prefix}}/nginx.pid;
            error_log {{prefix}}/logs/error.log info;
            events { worker_connections 4096; }
            http {
                {{log}}
                sendfile on;
                tcp_nopush on;
                keepalive_requests 1000000;
                default_type application/octet-stream;
                client_max_body_size 0;
                client_body_temp_path {{temp}};
                proxy_temp_path {{prefix}}/proxy; fastcgi_temp_path {{prefix}}/fastcgi;
                uwsgi_temp_path {{prefix}}/uwsgi; scgi_temp_path {{prefix}}/scgi;
                server {
                    listen 127.0.0.1:{{http1}};
                    listen 127.0.0.1:{{http2}} http2;
                    location /api/files/ {
                        alias {{rootPath}}/;
                        dav_methods PUT;
                        create_full_put_path on;
                        dav_access user:rw group:rw all:r;
                    }
                }
            }
            """;
        await File.WriteAllTextAsync(config, server.Configuration);
        server.Process = Process.Start(new ProcessStartInfo(executable, ["-c", config, "-p", prefix])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        }) ?? throw new InvalidOperationException("Could not start nginx");
        server.Http1 = new Uri($"http://127.0.0.1:{http1}");
        server.Http2 = new Uri($"http://127.0.0.1:{http2}");
        foreach (var port in new[] { http1, http2 })
        {
            if (!await server.ListensAsync(port))
            {
                var error = server.Process.HasExited ? await server.Process.StandardError.ReadToEndAsync() : "";
                throw new InvalidOperationException($"nginx did not listen on {port}: {error}");
            }
        }

        return server;
    }
}
