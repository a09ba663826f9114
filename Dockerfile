# syntax=docker/dockerfile:1
# Multi-stage: the SDK image builds and publishes; the ASP.NET runtime image runs as a non-root user.
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src

# Restore first so that the package layer is cached across source edits.
COPY global.json Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/FileTransfer.Server/FileTransfer.Server.csproj src/FileTransfer.Server/
# The server's own projects: the storage core and both backends (local disk, S3).
COPY src/FileTransfer.Core/FileTransfer.Core.csproj src/FileTransfer.Core/
COPY src/FileTransfer.Storage.Local/FileTransfer.Storage.Local.csproj src/FileTransfer.Storage.Local/
COPY src/FileTransfer.Storage.S3/FileTransfer.Storage.S3.csproj src/FileTransfer.Storage.S3/
RUN dotnet restore src/FileTransfer.Server/FileTransfer.Server.csproj

COPY protos/ protos/
COPY src/FileTransfer.Core/ src/FileTransfer.Core/
COPY src/FileTransfer.Storage.Local/ src/FileTransfer.Storage.Local/
COPY src/FileTransfer.Storage.S3/ src/FileTransfer.Storage.S3/
COPY src/FileTransfer.Server/ src/FileTransfer.Server/
RUN dotnet publish src/FileTransfer.Server/FileTransfer.Server.csproj -c Release -o /app --no-restore

FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS runtime
# curl only for the container health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data \
    && chown app:app /data
WORKDIR /app
COPY --from=build /app ./

# Listen on every interface inside the container; the storage root is the /data volume.
ENV Kestrel__Endpoints__Http1__Url=http://+:5000 \
    Kestrel__Endpoints__Http2__Url=http://+:5001 \
    Storage__RootPath=/data \
    ASPNETCORE_ENVIRONMENT=Production

# "app" (uid 1654) is the non-root user the official .NET images provide.
USER app
VOLUME ["/data"]
EXPOSE 5000 5001
# Liveness: the process answers. Readiness (/healthz/ready: the storage answers, not draining) is
# for load balancers and compose's depends_on; an orchestrator that replaces unhealthy containers
# must not replace one whose store is down. docs/deployment.md#health
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=5 \
    CMD curl -fsS http://localhost:5000/healthz/live || exit 1
ENTRYPOINT ["dotnet", "FileTransfer.Server.dll"]
