using Microsoft.AspNetCore.OpenApi;

namespace FileTransfer.Server.OpenApi;

internal static class OpenApiOptionsExtensions
{
    /// <summary>Adds the transformers that complete the generated document (headers, bodies, problems, /healthz).</summary>
    public static OpenApiOptions AddFileTransferDescriptions(this OpenApiOptions options)
    {
        options.AddOperationTransformer<FileOperationTransformer>();
        options.AddDocumentTransformer<OperationsDocumentTransformer>();
        return options;
    }
}
