using System.Reflection;
using Microsoft.AspNetCore.Mvc.Controllers;

namespace FileTransfer.Server.Hosting;

/// <summary>
/// MVC only discovers public controllers; ours are internal like every implementation type,
/// so that they can depend on the internal storage core.
/// </summary>
internal sealed class InternalControllerFeatureProvider : ControllerFeatureProvider
{
    protected override bool IsController(TypeInfo typeInfo) =>
        typeInfo.IsClass
        && !typeInfo.IsAbstract
        && !typeInfo.ContainsGenericParameters
        && typeInfo.Assembly == typeof(InternalControllerFeatureProvider).Assembly
        && typeInfo.Name.EndsWith("Controller", StringComparison.Ordinal);
}
