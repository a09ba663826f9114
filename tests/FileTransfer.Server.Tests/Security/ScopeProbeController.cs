using System.Collections.Concurrent;
using System.Security.Claims;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Actions under api/files declared outside the server, without any authorization attribute,
/// like the upload and delete actions added in parallel. Each answers with the caller's claims.
/// </summary>
[ApiController]
public sealed class ScopeProbeController : ControllerBase
{
    /// <summary>The principal each request tagged <c>?probe=ID</c> ran as, so a test can compare instances.</summary>
    public static ConcurrentDictionary<string, ClaimsPrincipal> Principals { get; } = new(StringComparer.Ordinal);

    /// <summary>Authorized by the read policy; records the request's principal under <paramref name="probe"/>.</summary>
    [HttpGet("api/files/probe-principal/{**path}")]
    [Authorize("read")]
    public IActionResult RecordPrincipal(string path, [FromQuery] string probe)
    {
        Principals[probe] = User;
        return Claims(path);
    }

    [HttpPut("api/files/probe/{**path}")]
    [HttpPost("api/files/probe/{**path}")]
    public IActionResult Write(string path) => Claims(path);

    [HttpDelete("api/files/probe/{**path}")]
    public IActionResult Remove(string path) => Claims(path);

    [Route("api/files/probe-any-method/{**path}")]
    public IActionResult AnyMethod(string path) => Claims(path);

    /// <summary>Shaped like a gRPC method (<c>/package.Service/Method</c>, no <c>path</c> route value) and authorized by the read policy, as gRPC methods are.</summary>
    [HttpPost("probe.v1.ProbeService/Read")]
    [Authorize("read")]
    public IActionResult RpcShapedRead() => Claims("");

    /// <summary>Fails with the request's query and Authorization header in the exception message, as careless code might.</summary>
    [HttpGet("api/files/probe-fail/{**path}")]
    public IActionResult FailWithCredentials(string path) =>
        throw new InvalidOperationException($"Could not serve {path}{Request.QueryString} for {Request.Headers.Authorization}");

    [HttpGet("api/probe/throw")]
    public IActionResult Throw() =>
        throw new InvalidOperationException($"Boom in {AppContext.BaseDirectory}");

    private OkObjectResult Claims(string path) =>
        Ok(new
        {
            path,
            claims = User.Claims.GroupBy(c => c.Type).ToDictionary(g => g.Key, g => g.Select(c => c.Value).ToArray()),
        });
}
