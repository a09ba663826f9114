#!/usr/bin/env bash
# Runs every test: installs the test peers, builds with warnings as errors, runs the suite and
# the benchmark smoke, and ends with the real totals on a line of its own: "N passed, N failed[, N skipped]".
set -uo pipefail
cd "$(dirname "$0")/.."

if ! bash scripts/install-test-deps.sh; then
  echo "could not install the test peers: no test ran; the install counts as the one failed check"
  echo "0 passed, 1 failed"
  exit 1
fi

# Build every project (server, CLI, tests, benchmarks) first: warnings are errors.
if ! dotnet build FileTransfer.sln -c Release; then
  echo "build FAILED: no test ran; the build counts as the one failed check"
  echo "0 passed, 1 failed"
  exit 1
fi

# One Ceph RADOS Gateway for the S3 tests (they read FT_S3_*), stopped when the tests are done and, on
# any other way out, by the trap; --owner stops it even if this script is killed outright. An engine
# that does not come up fails the run like a failed install, instead of the S3 tests being skipped.
ceph_dir=$(mktemp -d /tmp/filetransfer-ceph.XXXXXX)
trap 'bash scripts/ceph-rgw.sh stop "$ceph_dir"' EXIT
if ! bash scripts/ceph-rgw.sh start "$ceph_dir" --owner $$; then
  rm -rf artifacts/ceph-rgw-log && mkdir -p artifacts && cp -r "$ceph_dir/log" artifacts/ceph-rgw-log
  echo "could not start Ceph RGW (scripts/ceph-rgw.sh start): no test ran; the engine counts as the one failed check"
  echo "0 passed, 1 failed"
  exit 1
fi
set -a
# shellcheck source=/dev/null
source "$ceph_dir/env"
set +a

results="artifacts/test-results"
rm -rf "$results"
dotnet test FileTransfer.sln -c Release --no-build \
  --logger "trx;LogFilePrefix=results" --logger "console;verbosity=normal" \
  --results-directory "$results"
status=$?

# The benchmark harness once in smoke mode (tiny files, one run, no timing assertions), so that it
# cannot rot: every case must complete with the right bytes against our server and nginx, and the
# S3 case against the same RGW (FT_S3_* are still exported). Bounded, not timed: about 6 minutes on
# two busy cores, far less on a quiet machine.
mkdir -p artifacts
timeout 480 dotnet run -c Release --no-build --project benchmarks/FileTransfer.Benchmarks.E2E -- --smoke \
  > artifacts/benchmark-smoke.md
smoke=$?
if ((smoke != 0)); then echo "benchmark smoke FAILED (exit $smoke)"; else echo "benchmark smoke passed"; fi

# The engine's logs stay with the results (artifacts/ceph-rgw-log) for a failed S3 test.
rm -rf artifacts/ceph-rgw-log && mkdir -p artifacts && cp -r "$ceph_dir/log" artifacts/ceph-rgw-log
bash scripts/ceph-rgw.sh stop "$ceph_dir"
trap - EXIT

passed=0; failed=0; skipped=0; total=0
for trx in "$results"/*.trx; do
  [[ -f $trx ]] || continue
  counters=$(grep -o '<Counters [^>]*>' "$trx" | head -1)
  value() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" <<<"$counters"; }
  total=$((total + $(value total)))
  passed=$((passed + $(value passed)))
  failed=$((failed + $(value failed) + $(value error) + $(value timeout) + $(value aborted)))
  skipped=$((skipped + $(value notExecuted)))
done

# Name what failed right above the totals: the end of the log is what a CI record keeps.
if ((failed > 0)); then
  /usr/bin/python3 scripts/trx-failures.py "$results"/*.trx
fi

# A test run that failed without a failed test in its results (a crashed test host, a project
# that wrote no results) is one more failed check, so that the totals never say "0 failed" for a
# run that fails; the benchmark smoke is one more check too.
if ((status != 0 && failed == 0)) || ((total == 0)); then
  echo "dotnet test exited $status with $total test results: counted as one failed check"
  failed=$((failed + 1))
fi
if ((smoke == 0)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi

if ((skipped > 0)); then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi

if ((failed > 0)); then
  exit 1
fi
