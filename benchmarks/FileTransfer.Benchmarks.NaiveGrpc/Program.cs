using System.Net;
using FileTransfer.Benchmarks.NaiveGrpc;
using Microsoft.AspNetCore.Server.Kestrel.Core;

// The two gRPC downloads the published table measured, "naive" (the default) or "optimized"
// (Naive__Mode=optimized), hosted the way the ASP.NET Core gRPC template hosts a service (Kestrel's
// defaults), on loopback: HTTP/1.1 for /debug/runtime, h2c for gRPC.
var builder = WebApplication.CreateBuilder(args);
builder.Logging.SetMinimumLevel(LogLevel.Warning);
var endpoints = new List<ListenOptions>();
builder.WebHost.ConfigureKestrel(kestrel =>
{
    kestrel.Listen(IPAddress.Loopback, 0, listen => { listen.Protocols = HttpProtocols.Http1; endpoints.Add(listen); });
    kestrel.Listen(IPAddress.Loopback, 0, listen => { listen.Protocols = HttpProtocols.Http2; endpoints.Add(listen); });
});
builder.Services.AddGrpc();
builder.Services.AddSingleton(new NaiveOptions(
    Path.GetFullPath(builder.Configuration["Storage:RootPath"] ?? throw new InvalidOperationException("Set Storage__RootPath")),
    builder.Configuration.GetValue("Naive:ChunkSizeBytes", 32 * 1024),
    builder.Configuration["Naive:Mode"] switch
    {
        null or "naive" => false,
        "optimized" => true,
        var mode => throw new InvalidOperationException($"Naive:Mode is 'naive' or 'optimized', not '{mode}'"),
    }));

var app = builder.Build();
if (app.Services.GetRequiredService<NaiveOptions>().Optimized)
{
    app.MapGrpcService<OptimizedFileService>();
}
else
{
    app.MapGrpcService<NaiveFileService>();
}

app.MapGet("/debug/runtime", RuntimeReading.Capture);
app.Lifetime.ApplicationStarted.Register(() =>
{
    // The same line the product prints, which the harness waits for (port 0 is bound by now).
    foreach (var endpoint in endpoints)
    {
        Console.WriteLine($"Listening on http://{endpoint.IPEndPoint} ({endpoint.Protocols})");
    }
});
app.Run();
