#!/usr/bin/env bash
# Publishes the server as one native executable (Native AOT: no JIT, no .NET runtime to install) to
# artifacts/server/FileTransfer.Server, beside its appsettings.json and wwwroot, for this machine's OS
# and processor. Needs clang and zlib1g-dev (Debian: sudo apt-get install clang zlib1g-dev). The
# executable runs from anywhere: its own folder is its content root. Extra arguments go to dotnet
# publish. Does nothing while the executable is newer than every source of the server, its
# libraries and the proto, so that tests and the benchmark harness can call it before each use.
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/server
if [[ -x $out/FileTransfer.Server && $# -eq 0 ]] && [[ -z $(find src/FileTransfer.Server src/FileTransfer.Core src/FileTransfer.Storage.Local src/FileTransfer.Storage.S3 protos \
    Directory.Build.props Directory.Packages.props -type f -newer "$out/FileTransfer.Server" -not -path '*/bin/*' -not -path '*/obj/*' -print -quit) ]]; then
  echo "$out/FileTransfer.Server is up to date"
  exit 0
fi
started=$(mktemp)
trap 'rm -f "$started"' EXIT
# Warnings are errors, except the one trim warning of Grpc.AspNetCore.Server.Reflection (IL2104): its
# descriptor lookup falls back to reading a property by reflection when a service's bind method does
# not give it, which ours does (Grpc/FileServiceBinding.Descriptor; the reflection service lists it,
# as the Native AOT smoke test checks). Any other trim or AOT warning still fails the publish below.
log=$(mktemp)
trap 'rm -f "$started" "$log"' EXIT
dotnet publish src/FileTransfer.Server -c Release --use-current-runtime -p:PublishAot=true -p:WarningsNotAsErrors=IL2104 -o "$out" "$@" | tee "$log"
if grep -E 'warning IL[0-9]+' "$log" | grep -v "Assembly 'Grpc.AspNetCore.Server.Reflection' produced trim warnings" | grep -q .; then
  echo "publish-server.sh: trim or AOT warnings beyond the known one (above)" >&2
  exit 1
fi
# Dated when the publish started: a source changed while it ran makes the next call publish again.
touch -r "$started" "$out/FileTransfer.Server"
