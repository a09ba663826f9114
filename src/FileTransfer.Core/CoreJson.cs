using System.Text.Json.Serialization;

namespace FileTransfer.Core;

/// <summary>
/// The JSON of the core's formats (quota records, page tokens), generated at build time: a server
/// published with Native AOT cannot serialize by reflection. The default options, as the
/// reflection-based serializer used before: property names as declared, nulls written, so that
/// every server sharing a store reads what the others write. Metadata only, as the session
/// records' contexts: the generated fast path writes a null <c>byte[]</c> as <c>""</c>.
/// </summary>
[JsonSourceGenerationOptions(GenerationMode = JsonSourceGenerationMode.Metadata)]
[JsonSerializable(typeof(QuotaRecord))]
[JsonSerializable(typeof(PageToken.Payload))]
internal sealed partial class CoreJson : JsonSerializerContext;
