using Microsoft.AspNetCore.Mvc.Filters;
using Microsoft.AspNetCore.Mvc.ModelBinding;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Keeps MVC from reading (and buffering) a form body to bind action parameters, so that the
/// action streams the body itself. MVC builds every value provider before it binds any parameter,
/// even one that comes from the route, and the form providers read the whole body whenever the
/// Content-Type says form (application/x-www-form-urlencoded, multipart/form-data): a raw upload
/// sent with curl's default type would reach the action with its body consumed (400 for a body
/// with a Content-Length, an empty file for a chunked or HTTP/2 one). Removing those providers for
/// the upload actions is the approach the ASP.NET Core docs give for large uploads.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
internal sealed class DisableFormValueModelBindingAttribute : Attribute, IResourceFilter
{
    public void OnResourceExecuting(ResourceExecutingContext context)
    {
        var factories = context.ValueProviderFactories;
        factories.RemoveType<FormValueProviderFactory>();
        factories.RemoveType<FormFileValueProviderFactory>();
        factories.RemoveType<JQueryFormValueProviderFactory>();
    }

    public void OnResourceExecuted(ResourceExecutedContext context)
    {
    }
}
