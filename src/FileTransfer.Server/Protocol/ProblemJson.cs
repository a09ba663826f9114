using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Mvc;

namespace FileTransfer.Server.Protocol;

/// <summary>
/// The JSON of a refusal (<see cref="ProblemWriter"/>), generated at build time: a server published
/// with Native AOT cannot serialize by reflection. <see cref="ProblemDetails"/> names and orders its
/// own members; a member of its <c>Extensions</c> is written by its runtime type, which must be
/// listed here or the write fails: strings (<c>reason</c>, <c>traceId</c>, <c>path</c>), numbers
/// (the offsets and the quota's usage and limits) and the <c>errors</c> of a request model binding refused.
/// </summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(ProblemDetails))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(Dictionary<string, string[]>))]
internal sealed partial class ProblemJson : JsonSerializerContext
{
    /// <summary>
    /// The options of ASP.NET Core's JSON responses, which wrote problems before: the web defaults
    /// with relaxed escaping (a response body is never embedded in HTML), an encoder the attribute
    /// above cannot set.
    /// </summary>
    public static ProblemJson Response { get; } = new(new JsonSerializerOptions(JsonSerializerDefaults.Web)
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    });
}
