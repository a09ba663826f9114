using System.Runtime.CompilerServices;

namespace FileTransfer.Server.OpenApi;

/// <summary>
/// Swagger UI at <c>/swagger</c>, for the document at <c>/openapi/v1.json</c>. Only requests under
/// <c>/swagger</c> reach it (its middleware otherwise matched every request's path against its own
/// patterns), and it is built, and its assembly loaded, on the first of them: a server nobody
/// browses never holds it in memory.
/// </summary>
internal static class SwaggerUiPage
{
    public const string Prefix = "/swagger";

    public static void UseSwaggerUiPage(this WebApplication app)
    {
        var pipeline = new Lazy<RequestDelegate>(() => Build(((IApplicationBuilder)app).New()));
        app.UseWhen(
            context => context.Request.Path.StartsWithSegments(Prefix),
            branch => branch.Use(next => context =>
            {
                // The built pipeline ends in the branch's next: what Swagger UI does not serve falls through.
                context.Items[Next] = next;
                return pipeline.Value(context);
            }));
    }

    private static readonly object Next = new();

    // Not inlined: compiling the caller must not load Swashbuckle.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static RequestDelegate Build(IApplicationBuilder builder)
    {
        builder.UseSwaggerUI(options =>
        {
            options.SwaggerEndpoint("/openapi/v1.json", "FileTransfer v1");
            options.DocumentTitle = "FileTransfer API";
        });
        builder.Run(context => ((RequestDelegate)context.Items[Next]!)(context));
        return builder.Build();
    }
}
