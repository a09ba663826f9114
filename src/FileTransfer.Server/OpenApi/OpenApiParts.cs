using System.Text.Json.Nodes;
using Microsoft.OpenApi;

namespace FileTransfer.Server.OpenApi;

/// <summary>Building blocks for describing HTTP semantics that attributes cannot express.</summary>
internal static class OpenApiParts
{
    public const string ProblemJson = "application/problem+json";
    public const string OctetStream = "application/octet-stream";
    public const string ProblemSchema = "ProblemDetails";

    /// <summary>RFC 9110 section 15 (RFC 6585 for 429, RFC 4918 for 507, tus 1.0.0's checksum extension for 460): the problem <c>type</c> and <c>title</c> ASP.NET Core writes per status.</summary>
    private static readonly Dictionary<int, (string Type, string Title)> ProblemTypes = new()
    {
        [400] = ("https://tools.ietf.org/html/rfc9110#section-15.5.1", "Bad Request"),
        [401] = ("https://tools.ietf.org/html/rfc9110#section-15.5.2", "Unauthorized"),
        [403] = ("https://tools.ietf.org/html/rfc9110#section-15.5.4", "Forbidden"),
        [404] = ("https://tools.ietf.org/html/rfc9110#section-15.5.5", "Not Found"),
        [405] = ("https://tools.ietf.org/html/rfc9110#section-15.5.6", "Method Not Allowed"),
        [409] = ("https://tools.ietf.org/html/rfc9110#section-15.5.10", "Conflict"),
        [410] = ("https://tools.ietf.org/html/rfc9110#section-15.5.11", "Gone"),
        [412] = ("https://tools.ietf.org/html/rfc9110#section-15.5.13", "Precondition Failed"),
        [413] = ("https://tools.ietf.org/html/rfc9110#section-15.5.14", "Content Too Large"),
        [415] = ("https://tools.ietf.org/html/rfc9110#section-15.5.16", "Unsupported Media Type"),
        [416] = ("https://tools.ietf.org/html/rfc9110#section-15.5.17", "Range Not Satisfiable"),
        [429] = (Protocol.HttpErrors.TooManyRequestsType, "Too Many Requests"),
        [Protocol.HttpErrors.ChecksumMismatchStatus] = (Protocol.HttpErrors.ChecksumMismatchType, "Checksum Mismatch"),
        [500] = ("https://tools.ietf.org/html/rfc9110#section-15.6.1", "Internal Server Error"),
        [503] = ("https://tools.ietf.org/html/rfc9110#section-15.6.4", "Service Unavailable"),
        [507] = ("https://tools.ietf.org/html/rfc4918#section-11.5", "Insufficient Storage"),
    };

    public static OpenApiParameter Header(string name, string description, string? format = null) => new()
    {
        Name = name,
        In = ParameterLocation.Header,
        Description = description,
        Schema = new OpenApiSchema { Type = JsonSchemaType.String, Format = format },
    };

    public static OpenApiHeader ResponseHeader(string description, JsonSchemaType type = JsonSchemaType.String) => new()
    {
        Description = description,
        Schema = new OpenApiSchema { Type = type },
    };

    /// <summary>Raw bytes, as OpenAPI 3.x describes a file body.</summary>
    public static OpenApiSchema Binary() => new() { Type = JsonSchemaType.String, Format = "binary" };

    public static Dictionary<string, OpenApiMediaType> BinaryContent() => new() { [OctetStream] = new OpenApiMediaType { Schema = Binary() } };

    /// <summary>An RFC 9457 problem response, with an example carrying the status's problem type.</summary>
    public static OpenApiResponse Problem(OpenApiDocument document, int status, string description)
    {
        var (type, title) = ProblemTypes.TryGetValue(status, out var known) ? known : ("about:blank", description);
        return new OpenApiResponse
        {
            Description = description,
            Content = new Dictionary<string, OpenApiMediaType>
            {
                [ProblemJson] = new()
                {
                    Schema = new OpenApiSchemaReference(ProblemSchema, document),
                    Example = new JsonObject { ["type"] = type, ["title"] = title, ["status"] = status },
                },
            },
        };
    }

    /// <summary>Sets <paramref name="status"/> unless the operation already declares it (attributes win).</summary>
    public static void Ensure(OpenApiOperation operation, int status, Func<OpenApiResponse> create)
    {
        operation.Responses ??= [];
        operation.Responses.TryAdd(status.ToString(System.Globalization.CultureInfo.InvariantCulture), create());
    }

    public static void Add(OpenApiOperation operation, params OpenApiParameter[] parameters)
    {
        operation.Parameters ??= [];
        foreach (var parameter in parameters)
        {
            if (!operation.Parameters.Any(p => p.Name == parameter.Name && p.In == parameter.In))
            {
                operation.Parameters.Add(parameter);
            }
        }
    }
}
