using FileTransfer.Core;

namespace FileTransfer.Server.Security;

/// <summary>
/// Declares which <see cref="FileOperation"/> a REST action or a gRPC method performs. The scope it
/// needs follows from the core's one table (<see cref="OperationScopes"/>), applied to both protocols
/// by <see cref="OperationScopeConvention"/>.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
internal sealed class OperationAttribute(FileOperation operation) : Attribute
{
    public FileOperation Operation { get; } = operation;
}
