using System.Collections.Concurrent;
using System.Security.Claims;
using FileTransfer.Core;
using FileTransfer.Server.Security;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Tests.Security;

/// <summary>
/// Actions under api/files declared outside the server, without any authorization attribute: each
/// declares only its operation (as every product action does), or none at all. Each answers with
/// the caller's claims.
/// </summary>
[ApiController]
public sealed class ScopeProbeController : ControllerBase
{
    /// <summary>The principal each request tagged <c>?probe=ID</c> ran as, so a test can compare instances.</summary>
    public static ConcurrentDictionary<string, ClaimsPrincipal> Principals { get; } = new(StringComparer.Ordinal);

    /// <summary>A read; records the request's principal under <paramref name="probe"/>.</summary>
    [HttpGet("api/files/probe-principal/{**path}")]
    [Operation(FileOperation.Read)]
    public IActionResult RecordPrincipal(string path, [FromQuery] string probe)
    {
        Principals[probe] = User;
        return Claims(path);
    }

    [HttpPut("api/files/probe/{**path}")]
    [HttpPost("api/files/probe/{**path}")]
    [Operation(FileOperation.Write)]
    public IActionResult Write(string path) => Claims(path);

    [HttpDelete("api/files/probe/{**path}")]
    [Operation(FileOperation.Delete)]
    public IActionResult Remove(string path) => Claims(path);

    /// <summary>Declares no operation: it fails closed and needs every scope.</summary>
    [Route("api/files/probe-any-method/{**path}")]
    public IActionResult AnyMethod(string path) => Claims(path);

    /// <summary>Shaped like a gRPC method (<c>/package.Service/Method</c>, no <c>path</c> route value) and authorized by the read policy, as gRPC methods are.</summary>
    [HttpPost("probe.v1.ProbeService/Read")]
    [Authorize("read")]
    public IActionResult RpcShapedRead() => Claims("");

    /// <summary>Fails with the request's query and Authorization header in the exception message, as careless code might.</summary>
    [HttpGet("api/files/probe-fail/{**path}")]
    [Operation(FileOperation.Read)]
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
