namespace FileTransfer.Server.Hosting;

/// <summary>Creates the server's host builder.</summary>
public static class FileTransferHost
{
    private const string ContentRootKey = "contentRoot";

    /// <summary>
    /// <see cref="WebApplication.CreateBuilder(string[])"/> with one difference: unless a content root
    /// is given (<c>--contentRoot</c>, <c>ASPNETCORE_CONTENTROOT</c>, <c>DOTNET_CONTENTROOT</c>), it is
    /// the server's own folder, where appsettings.json was published, instead of the working
    /// directory. ASP.NET Core's default made <c>dotnet /srv/ft/FileTransfer.Server.dll</c> started
    /// from any other folder (a systemd unit's <c>/</c>, a shell's home) run without appsettings.json:
    /// both endpoints fell back to Http1AndHttp2, which on cleartext is HTTP/1.1 only, so every
    /// HTTP/2 prior-knowledge client failed, and a relative storage root moved with the shell.
    /// <c>dotnet run</c> passes the project folder as the content root (RunArguments in the project),
    /// so a run from source keeps its files in src/FileTransfer.Server/storage.
    /// </summary>
    public static WebApplicationBuilder CreateBuilder(string[] args)
    {
        // The same sources, in the same order, that WebApplicationBuilder reads its content root from.
        var given = new ConfigurationBuilder()
            .AddEnvironmentVariables("ASPNETCORE_")
            .AddEnvironmentVariables("DOTNET_")
            .AddCommandLine(args)
            .Build()[ContentRootKey];

        return WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,
            ContentRootPath = string.IsNullOrEmpty(given) ? Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory) : null,
        });
    }
}
