namespace FileTransfer.Cli.Http;

/// <summary>Sends a request, reporting an unreachable server with the connection-lost exit code.</summary>
internal static class Network
{
    public static async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpRequestMessage request, CancellationToken cancellationToken)
    {
        try
        {
            return await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        }
        catch (HttpRequestException e) when (e.StatusCode is null)
        {
            throw new CliException(ExitCodes.ConnectionLost, $"Cannot reach {request.RequestUri!.GetLeftPart(UriPartial.Authority)}: {Innermost(e).Message}", e);
        }
        catch (IOException e)
        {
            throw new CliException(ExitCodes.ConnectionLost, $"The connection to {request.RequestUri!.GetLeftPart(UriPartial.Authority)} was lost: {e.Message}", e);
        }
    }

    private static Exception Innermost(Exception e) => e.InnerException is null ? e : Innermost(e.InnerException);
}
