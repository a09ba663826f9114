using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Security;

/// <summary>401, 403 and 429 written by authentication and the rate limiter, as RFC 9457 problems.</summary>
internal static class SecurityProblems
{
    /// <summary>Key in <c>AuthenticationProperties.Items</c> carrying why access was refused.</summary>
    public const string DetailItem = "ft:detail";

    public static async Task WriteAsync(HttpContext context, int status, string title, string detail)
    {
        context.Response.StatusCode = status;
        var problems = context.RequestServices.GetRequiredService<IProblemDetailsService>();
        await problems.WriteAsync(new ProblemDetailsContext
        {
            HttpContext = context,
            ProblemDetails = new ProblemDetails { Status = status, Title = title, Detail = detail },
        });
    }
}
