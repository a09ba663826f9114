#!/usr/bin/env bash
# Installs the third-party peers the tests run against (curl, nghttp2's nghttp/h2load, promtool), what the
# benchmark smoke drives: nginx (nginx-light has sendfile, http2 and dav) and wrk, and the two
# independent gRPC stacks of the interop tests: Debian's python3-grpcio (C-core) with
# python3-grpc-tools for Debian's /usr/bin/python3, and Node.js with @grpc/grpc-js and
# @grpc/proto-loader and tus-js-client 4.3.1 for the resumable-upload interop tests, and Uppy
# (@uppy/core 6.3.1, @uppy/tus 6.0.0, bundled for the browser by esbuild) for the CORS test (`npm ci`
# in tests/interop/node, from its committed package-lock.json), and
# Debian's chromium for the Swagger UI test and the web page's tests, and Ceph (radosgw, ceph-mon, ceph-osd) for the S3 engine
# that scripts/ceph-rgw.sh starts for the S3 tests, and clang with zlib1g-dev for the CLI's Native AOT build.
# Idempotent: installs only what is missing; safe to run on every test run.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v nghttp >/dev/null 2>&1 || missing+=(nghttp2-client)
command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
# Debian's interpreter on purpose: a pyenv or venv python first on PATH does not see apt's modules.
/usr/bin/python3 -c "import grpc" >/dev/null 2>&1 || missing+=(python3-grpcio)
/usr/bin/python3 -c "import grpc_tools.protoc" >/dev/null 2>&1 || missing+=(python3-grpc-tools)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# Prometheus' promtool lints the real /metrics output (Debian's prometheus package ships it).
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
# Headless Chromium for the Swagger UI test and the web page's Playwright tests (what a person sees
# in the browser). Playwright's driver and its Node.js come with the Microsoft.Playwright NuGet
# package; the tests launch this chromium by its path, so no Playwright browser is downloaded.
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# A single-node Ceph RADOS Gateway, the real S3 engine of the S3 tests (what scripts/ceph-rgw.sh install does).
command -v radosgw >/dev/null 2>&1 || missing+=(radosgw)
command -v ceph-mon >/dev/null 2>&1 || missing+=(ceph-mon)
command -v ceph-osd >/dev/null 2>&1 || missing+=(ceph-osd)
# Native AOT's toolchain for the CLI's native build (scripts/publish-cli.sh), which a CLI test and
# the benchmark publish: clang compiles and links, zlib1g-dev is a library the runtime links in.
command -v clang >/dev/null 2>&1 || missing+=(clang)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
# An OpenID Connect provider the token tests start (glewlwyd, client-credentials tokens), and the
# sqlite3 shell that lays out its database.
command -v glewlwyd >/dev/null 2>&1 || missing+=(glewlwyd)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)

if ((${#missing[@]} > 0)); then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "Installing test peers: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The grpc-js client's packages, exactly as locked. Skipped while node_modules was installed from
# this very lock file (a stamp inside node_modules records its hash), so a repeated run costs nothing.
node_dir=tests/interop/node
stamp="$node_dir/node_modules/.installed-lock-sha256"
lock_hash=$(sha256sum "$node_dir/package-lock.json" | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$lock_hash" ]]; then
  echo "Installing the grpc-js interop client's packages (npm ci)"
  # No install scripts: every package it needs is plain JavaScript.
  (cd "$node_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$lock_hash" >"$stamp"
fi
