using Microsoft.Extensions.FileProviders;

// "kestrel-bare": what any ASP.NET Core server pays for a small GET on this runtime, and nothing the
// product adds (no API key, rate limiter, connection guard, log line or metrics). The small-file case
// runs it beside ours and nginx (harness option --kestrel-bare), so that the report can show how much
// of our per-request cost is Kestrel's and how much is ours.
//
// Configured as the product is: Kestrel's endpoints from configuration (the harness sets
// Kestrel__Endpoints__Http1__Url, and Kestrel__Endpoints__Http2__Url with Protocols=Http2 for h2c),
// the folder to serve from Storage__RootPath; either may also be given on the command line.
var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
var root = builder.Configuration["Storage:RootPath"] ?? throw new InvalidOperationException("Set Storage__RootPath to the folder to serve");

// Resolves a name inside the root only: a ".." that climbs out of it, an absolute path or a dot file is "not found".
using var files = new PhysicalFileProvider(Path.GetFullPath(root));

var app = builder.Build();

// A RequestDelegate, not a handler with bound parameters: the floor has no parameter binding to pay for.
app.MapGet("/api/files/{**name}", context =>
{
    var file = files.GetFileInfo(context.Request.RouteValues["name"] as string ?? "");
    if (!file.Exists)
    {
        context.Response.StatusCode = StatusCodes.Status404NotFound;
        return Task.CompletedTask;
    }

    context.Response.ContentType = "application/octet-stream";
    context.Response.ContentLength = file.Length;

    // Kestrel's own SendFileAsync (a copy from the file, as ours makes); a client that goes away ends it quietly.
    return context.Response.SendFileAsync(file);
});

app.Run();
