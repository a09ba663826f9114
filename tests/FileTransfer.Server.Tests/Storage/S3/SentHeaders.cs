using Amazon.Runtime;
using Amazon.S3;

namespace FileTransfer.Server.Tests.Storage.S3;

/// <summary>
/// Records the headers of every request a client sends while it lives, so that a test of a header RGW
/// ignores first proves the SDK did send it.
/// </summary>
public sealed class SentHeaders : IDisposable
{
    private readonly AmazonS3Client _client;
    private readonly List<Dictionary<string, string>> _requests = [];

    public SentHeaders(AmazonS3Client client)
    {
        _client = client;
        _client.BeforeRequestEvent += OnRequest;
    }

    /// <summary>The values <paramref name="header"/> had on the requests sent so far, in order.</summary>
    public IReadOnlyList<string> ValuesOf(string header)
    {
        lock (_requests)
        {
            return [.. _requests.SelectMany(headers => headers.TryGetValue(header, out var value) ? [value] : Array.Empty<string>())];
        }
    }

    public void Dispose() => _client.BeforeRequestEvent -= OnRequest;

    private void OnRequest(object sender, RequestEventArgs e)
    {
        if (e is WebServiceRequestEventArgs request)
        {
            lock (_requests)
            {
                _requests.Add(new Dictionary<string, string>(request.Headers, StringComparer.OrdinalIgnoreCase));
            }
        }
    }
}
