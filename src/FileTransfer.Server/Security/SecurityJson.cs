using System.Text.Json.Serialization;

namespace FileTransfer.Server.Security;

/// <summary>
/// The JSON of signed links and of a token's paths claim, generated at build time: a server
/// published with Native AOT cannot serialize by reflection. The default options, as the
/// reflection-based serializer used before, so that links issued by earlier builds still verify.
/// </summary>
[JsonSerializable(typeof(SignedLink))]
[JsonSerializable(typeof(string[]))]
internal sealed partial class SecurityJson : JsonSerializerContext;
