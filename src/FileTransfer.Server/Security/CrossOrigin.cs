using Microsoft.AspNetCore.Cors.Infrastructure;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Security;

/// <summary>
/// CORS for the origins in <see cref="CorsOptions.AllowedOrigins"/>: preflights answered for every
/// method and header the REST API, tus and the IETF draft use, and the response headers their
/// browser clients read (Uppy and tus-js-client read <c>Location</c>, <c>Upload-Offset</c>, ...)
/// exposed. No origin configured, no middleware: no CORS header on any response.
/// </summary>
internal static class CrossOrigin
{
    /// <summary>Every method of the API: files (GET, HEAD, PUT, POST, DELETE), tus and the draft (PATCH), discovery (OPTIONS).</summary>
    public static readonly string[] Methods = ["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE", "OPTIONS"];

    /// <summary>
    /// Response headers a browser script may read besides the CORS-safelisted ones (Fetch,
    /// "CORS-safelisted response-header name"): where an upload is, how far it is, when it expires,
    /// the tus discovery, the stored version and its digest, a download's name and range, when to retry.
    /// </summary>
    public static readonly string[] ExposedHeaders =
    [
        "Location", "Content-Location", "ETag", "Repr-Digest", "Content-Digest", "Want-Content-Digest",
        "Content-Disposition", "Content-Range", "Accept-Ranges", "Retry-After", "WWW-Authenticate",
        "Upload-Offset", "Upload-Length", "Upload-Defer-Length", "Upload-Expires", "Upload-Metadata",
        "Upload-Complete", "Upload-Incomplete", "Upload-Limit", "Upload-Draft-Interop-Version",
        "Tus-Resumable", "Tus-Version", "Tus-Extension", "Tus-Max-Size", "Tus-Checksum-Algorithm",
    ];

    // A browser may cache a preflight this long (Chromium caps it at 2 hours).
    private static readonly TimeSpan PreflightMaxAge = TimeSpan.FromMinutes(10);

    public static IServiceCollection AddFileTransferCors(this IServiceCollection services)
    {
        services.AddOptions<CorsOptions>().BindConfiguration(CorsOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<CorsOptions>, CorsOptionsAttributes>();
        services.AddCors();
        services.AddOptions<Microsoft.AspNetCore.Cors.Infrastructure.CorsOptions>()
            .Configure<IOptions<CorsOptions>>((cors, allowed) => cors.AddDefaultPolicy(Policy(allowed.Value.AllowedOrigins)));
        return services;
    }

    /// <summary>
    /// Before the web page, diagnostics and security: a preflight carries no credential, so it is
    /// answered before authentication or the rate limiter could refuse it, and every answer after it
    /// (401 and 429 included) carries the CORS headers a browser needs to show it to the script.
    /// </summary>
    public static WebApplication UseFileTransferCors(this WebApplication app)
    {
        if (app.Services.GetRequiredService<IOptions<CorsOptions>>().Value.AllowedOrigins.Length > 0)
        {
            app.UseCors();
        }

        return app;
    }

    private static CorsPolicy Policy(string[] origins)
    {
        var policy = new CorsPolicyBuilder()
            .WithMethods(Methods)
            .AllowAnyHeader()
            .WithExposedHeaders(ExposedHeaders)
            .SetPreflightMaxAge(PreflightMaxAge);
        return (origins.Contains("*") ? policy.AllowAnyOrigin() : policy.WithOrigins([.. origins.Select(o => o.TrimEnd('/'))])).Build();
    }
}
