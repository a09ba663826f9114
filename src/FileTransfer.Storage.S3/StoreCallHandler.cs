using Amazon.Runtime;
using Amazon.Runtime.Internal;
using Amazon.S3.Model;

namespace FileTransfer.Storage.S3;

/// <summary>
/// The outermost step of every request the backend's S3 client makes, and the one place a failing
/// store is turned into the refusal clients see (<see cref="S3Failures.Unavailable"/>): each call,
/// retries included, has <see cref="S3StorageOptions.TimeoutSeconds"/> to get its answer, so that a
/// store that accepts connections and never answers (a partition without resets, a paused gateway)
/// fails the call instead of hanging it; and the body of a GetObject is read through
/// <see cref="StoreBodyStream"/>, which gives each read as long. The store's answers that the backend
/// acts on (404, 409, 412) and a caller that gives up pass through unchanged.
/// </summary>
internal sealed class StoreCallHandler(TimeSpan timeout) : PipelineHandler
{
    public override async Task<T> InvokeAsync<T>(IExecutionContext executionContext)
    {
        // The SDK reads the request's token from its context: the call's deadline takes its place.
        var context = (RequestContext)executionContext.RequestContext;
        var caller = context.CancellationToken;
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(caller);
        deadline.CancelAfter(timeout);
        context.CancellationToken = deadline.Token;
        try
        {
            var response = await base.InvokeAsync<T>(executionContext);
            if (response is GetObjectResponse { ResponseStream: { } body } get)
            {
                get.ResponseStream = new StoreBodyStream(body, timeout);
            }

            return response;
        }
        catch (Exception ex) when (S3Failures.IsStoreFailure(ex, caller))
        {
            throw S3Failures.Unavailable(ex, deadline.IsCancellationRequested && !caller.IsCancellationRequested ? timeout : null);
        }
        finally
        {
            context.CancellationToken = caller;
        }
    }
}
