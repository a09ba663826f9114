# syntax=docker/dockerfile:1
# Multi-stage: the SDK image compiles the server ahead of time (Native AOT, scripts/publish-server.sh:
# one executable, no JIT, about half the memory of the same server on the .NET runtime); the
# runtime-deps image (the native libraries .NET needs, no .NET runtime) runs it as a non-root user.
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
# Native AOT's toolchain: clang compiles and links, zlib1g-dev is a library the runtime links in.
RUN apt-get update \
    && apt-get install -y --no-install-recommends clang zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src

# Restore first so that the package layer is cached across source edits.
COPY global.json Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/FileTransfer.Server/FileTransfer.Server.csproj src/FileTransfer.Server/
# The server's own projects: the storage core and both backends (local disk, S3).
COPY src/FileTransfer.Core/FileTransfer.Core.csproj src/FileTransfer.Core/
COPY src/FileTransfer.Storage.Local/FileTransfer.Storage.Local.csproj src/FileTransfer.Storage.Local/
COPY src/FileTransfer.Storage.S3/FileTransfer.Storage.S3.csproj src/FileTransfer.Storage.S3/
RUN dotnet restore src/FileTransfer.Server/FileTransfer.Server.csproj --use-current-runtime

COPY protos/ protos/
COPY src/FileTransfer.Core/ src/FileTransfer.Core/
COPY src/FileTransfer.Storage.Local/ src/FileTransfer.Storage.Local/
COPY src/FileTransfer.Storage.S3/ src/FileTransfer.Storage.S3/
COPY src/FileTransfer.Server/ src/FileTransfer.Server/
COPY scripts/publish-server.sh scripts/
# The script's warnings policy is the build's; the debug symbols stay out of the image.
RUN bash scripts/publish-server.sh \
    && mkdir /app \
    && cp -r artifacts/server/FileTransfer.Server artifacts/server/appsettings.json artifacts/server/wwwroot /app/

FROM mcr.microsoft.com/dotnet/runtime-deps:10.0 AS runtime
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
ENTRYPOINT ["./FileTransfer.Server"]
