namespace FileTransfer.Cli;

/// <summary>The global options after parsing, with the environment's defaults applied.</summary>
/// <param name="Server">Base URL of the server for names that are not full URLs.</param>
/// <param name="Protocol">"rest" or "grpc".</param>
/// <param name="HttpVersion">Requested HTTP version, or null for the default of the URL's scheme.</param>
/// <param name="ApiKey">Sent as <c>Authorization: Bearer</c> with names resolved against <paramref name="Server"/>.</param>
/// <param name="Quiet">No progress and no notes; errors are still written.</param>
internal sealed record ClientSettings(Uri Server, string Protocol, string? HttpVersion, string? ApiKey, bool Quiet)
{
    public const string Rest = "rest";
    public const string Grpc = "grpc";

    /// <summary>Fails with <see cref="ExitCodes.ProtocolUnavailable"/> unless REST was chosen.</summary>
    public void EnsureRest()
    {
        if (Protocol == Grpc)
        {
            // No fake: the .NET gRPC client runtime is not in this project's package feed, and the
            // server does not serve the gRPC FileService in this build (README "gRPC status").
            throw new CliException(
                ExitCodes.ProtocolUnavailable,
                "gRPC is not available in this build: the server does not serve the gRPC FileService yet and this client " +
                "has no gRPC runtime. Use --protocol rest (the default).");
        }
    }
}
