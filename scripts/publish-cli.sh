#!/usr/bin/env bash
# Publishes the CLI as one native executable (Native AOT: no .NET runtime needed to run it, no JIT at
# start-up) to artifacts/cli/filetransfer, for this machine's OS and processor. Needs clang and
# zlib1g-dev (Debian: sudo apt-get install clang zlib1g-dev). Extra arguments go to dotnet publish.
# Does nothing while artifacts/cli/filetransfer is newer than every source of the CLI, the client
# library and the proto, so tests and the benchmark harness can call it before each use.
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/cli
if [[ -x $out/filetransfer && $# -eq 0 ]] && [[ -z $(find src/FileTransfer.Cli src/FileTransfer.Client protos Directory.Build.props Directory.Packages.props \
    -type f -newer "$out/filetransfer" -not -path '*/bin/*' -not -path '*/obj/*' -print -quit) ]]; then
  echo "$out/filetransfer is up to date"
  exit 0
fi
started=$(mktemp)
trap 'rm -f "$started"' EXIT
dotnet publish src/FileTransfer.Cli -c Release --use-current-runtime -p:PublishAot=true -o "$out" "$@"
# Dated when the publish started: a source changed while it ran makes the next call publish again.
touch -r "$started" "$out/filetransfer"
