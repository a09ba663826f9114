using System.Text.Json;
using System.Text.Json.Serialization;
using FileTransfer.Core;
using FileTransfer.Server.Security;

namespace FileTransfer.Server.Rest;

/// <summary>
/// The JSON the REST endpoints read and write, generated at build time: a server published with
/// Native AOT cannot serialize by reflection, and the OpenAPI document describes the same types from
/// this metadata. First in the app's JSON resolvers (<see cref="RestJsonRegistration"/>), with the web
/// defaults the endpoints always wrote (camelCase names).
/// </summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(IEnumerable<FileDescription>))]
[JsonSerializable(typeof(UploadedFile))]
[JsonSerializable(typeof(List<UploadedFile>))]
[JsonSerializable(typeof(IReadOnlyList<UploadedFile>))]
[JsonSerializable(typeof(LinkRequest))]
[JsonSerializable(typeof(LinkResponse))]
[JsonSerializable(typeof(CallerDescription))]
[JsonSerializable(typeof(QuotaUsage))]
internal sealed partial class RestJson : JsonSerializerContext;

/// <summary>Puts <see cref="RestJson"/> first among the JSON resolvers of the endpoints' results and bodies.</summary>
internal static class RestJsonRegistration
{
    public static IServiceCollection AddRestJson(this IServiceCollection services) =>
        services.ConfigureHttpJsonOptions(options => options.SerializerOptions.TypeInfoResolverChain.Insert(0, RestJson.Default));
}
