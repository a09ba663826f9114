using Microsoft.AspNetCore.OpenApi;

namespace FileTransfer.Server.OpenApi;

internal static class OpenApiOptionsExtensions
{
    /// <summary>Adds the transformers that complete the generated document (headers, bodies, problems, /healthz, security).</summary>
    public static OpenApiOptions AddFileTransferDescriptions(this OpenApiOptions options)
    {
        options.AddOperationTransformer<FileOperationTransformer>();
        options.AddDocumentTransformer<OperationsDocumentTransformer>();
        options.AddDocumentTransformer<OpenApiSecurityTransformer>();
        options.AddDocumentTransformer<ProblemReasonTransformer>();
        options.AddOperationTransformer<OpenApiOperationSecurity>();
        return options;
    }
}
