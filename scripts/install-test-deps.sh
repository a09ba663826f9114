#!/usr/bin/env bash
# Installs the third-party peers the tests run against (curl, nghttp2's nghttp/h2load), and what
# the benchmark smoke drives: nginx (nginx-light has sendfile, http2 and dav) and wrk.
# Idempotent: installs only what is missing; safe to run on every test run.
set -euo pipefail

missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v nghttp >/dev/null 2>&1 || missing+=(nghttp2-client)
command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)

if ((${#missing[@]} > 0)); then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "Installing test peers: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
