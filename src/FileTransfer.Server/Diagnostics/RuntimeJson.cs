using System.Text.Json;
using System.Text.Json.Serialization;

namespace FileTransfer.Server.Diagnostics;

/// <summary><c>GET /debug/runtime</c>'s JSON, generated at build time (a Native AOT server cannot serialize by reflection).</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(RuntimeSnapshot))]
internal sealed partial class RuntimeJson : JsonSerializerContext;
