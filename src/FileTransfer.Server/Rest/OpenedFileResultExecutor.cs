using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Infrastructure;
using Microsoft.Extensions.Options;

namespace FileTransfer.Server.Rest;

/// <summary>
/// Executes <see cref="OpenedFileResult"/> as PhysicalFileResultExecutor does (status, Content-Range,
/// Accept-Ranges, ETag, Last-Modified and the 304 / 412 / 416 decisions all come from
/// <see cref="FileResultExecutorBase.SetHeadersAndLog"/>), with the file's size taken from the
/// opened version instead of a fresh stat of the path, and the body from <see cref="OpenedFileSender"/>.
/// </summary>
internal sealed class OpenedFileResultExecutor(ILoggerFactory loggerFactory, IOptions<TransferTuningOptions> options)
    : FileResultExecutorBase(CreateLogger<OpenedFileResultExecutor>(loggerFactory))
{
    public async Task ExecuteAsync(ActionContext context, OpenedFileResult result)
    {
        var size = result.File.Version.Size;
        var (range, rangeLength, serveBody) = SetHeadersAndLog(context, result, size, result.EnableRangeProcessing, result.LastModified, result.EntityTag);
        if (!serveBody)
        {
            return;
        }

        var offset = range?.From ?? 0;
        var count = range is null ? size : rangeLength;
        await OpenedFileSender.SendAsync(context.HttpContext, result.File, offset, count, options.Value);
    }
}
