#!/usr/bin/env bash
# The whole benchmark against the current commit, in one command:
#
#   bash benchmarks/run.sh [--max-load X] [--wait MINUTES] [--force] [--no-publish] [HARNESS OPTIONS...]
#
# Installs what it drives (nginx, curl, h2load, wrk, python3-grpcio, gnuplot; apt, only what is
# missing), builds the solution in Release (warnings are errors) and the server's Native AOT
# executable, which it measures as "ours" (the container image runs it), and kestrel-bare's (Kestrel
# alone, the small case's floor, artifacts/kestrel-bare/), waits for the machine to be quiet
# (the 1-minute load average at most --max-load, default 1.0, for at most --wait minutes, default 15),
# and refuses to start on a busy machine unless --force is given, in which case the report says
# "Not a result" at its top. Then it runs every case of benchmarks/FileTransfer.Benchmarks.E2E with
# its defaults (5 interleaved runs, 1 GiB, the 4 GiB published table, 64 and 256 concurrent
# transfers, ...) and writes benchmarks/results/<date>-<commit>/: report.md, runs.csv, peers/,
# logs/, console.log and the charts. A run that is a result (enough runs, quiet, clean commit, no
# failure) also becomes benchmarks/RESULTS.md, with an empty "written summary" for you to fill in;
# --no-publish leaves RESULTS.md alone. Any other option goes to the harness (see --help there),
# e.g. --cases grpc,clients or --runs 7; the report names every option it ran with.
set -euo pipefail
cd "$(dirname "$0")/.."

max_load=1.0
wait_minutes=15
force=0
publish=1
harness=()
while (($# > 0)); do
  case $1 in
    --max-load) max_load=$2; shift 2 ;;
    --wait) wait_minutes=$2; shift 2 ;;
    --force) force=1; shift ;;
    --no-publish) publish=0; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) harness+=("$1"); shift ;;
  esac
done

# 1. The tools the harness drives, from Debian (idempotent: only what is missing).
missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot-nox)
# Debian's interpreter on purpose: a pyenv or venv python first on PATH does not see apt's modules.
/usr/bin/python3 -c "import grpc" >/dev/null 2>&1 || missing+=(python3-grpcio)
/usr/bin/python3 -c "import grpc_tools.protoc" >/dev/null 2>&1 || missing+=(python3-grpc-tools)
if ((${#missing[@]} > 0)); then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "run.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. Release build of everything the harness starts (server, CLI, published services) and itself, and
# the server as the container image ships it: the Native AOT executable ("ours", unless --server says
# otherwise; scripts/publish-server.sh does nothing while it is newer than the sources).
dotnet build FileTransfer.sln -c Release -nologo -clp:ErrorsOnly
if [[ " ${harness[*]} " != *" --server "* ]]; then
  bash scripts/publish-server.sh >/dev/null
  harness+=(--server artifacts/server/FileTransfer.Server)
fi

# kestrel-bare (benchmarks/FileTransfer.Benchmarks.KestrelBare), built as ours is: Native AOT for this machine.
# Published again only when a source of it is newer than the executable, as scripts/publish-server.sh does;
# dated when the publish started, so that a source changed while it ran makes the next call publish again.
publish_kestrel_bare() {
  local project=benchmarks/FileTransfer.Benchmarks.KestrelBare out=artifacts/kestrel-bare
  local executable=$out/FileTransfer.Benchmarks.KestrelBare started
  if [[ -x $executable ]] && [[ -z $(find "$project" Directory.Build.props benchmarks/Directory.Build.props Directory.Packages.props \
      -type f -newer "$executable" -not -path '*/bin/*' -not -path '*/obj/*' -print -quit) ]]; then
    return
  fi
  started=$(mktemp)
  if ! dotnet publish "$project" -c Release --use-current-runtime -o "$out" -nologo -clp:ErrorsOnly; then
    rm -f "$started"
    echo "run.sh: publishing kestrel-bare failed (above)" >&2
    exit 1
  fi
  touch -r "$started" "$executable"
  rm -f "$started"
}
if [[ " ${harness[*]} " != *" --kestrel-bare "* ]]; then
  publish_kestrel_bare
  harness+=(--kestrel-bare artifacts/kestrel-bare/FileTransfer.Benchmarks.KestrelBare)
fi

# 256 concurrent transfers need more descriptors than a default soft limit of 1024 may give.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# 3. A quiet machine, or a run that says it was not.
load() { cut -d' ' -f1 /proc/loadavg; }
above() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
echo "run.sh: load average $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) on $(nproc) cores; quiet means a 1-minute load of at most $max_load"
deadline=$((SECONDS + wait_minutes * 60))
while above "$(load)" "$max_load" && ((SECONDS < deadline)); do
  echo "run.sh: load $(load) is above $max_load; waiting (up to $(((deadline - SECONDS + 59) / 60)) more minutes)"
  sleep 30
done
if above "$(load)" "$max_load"; then
  if ((force == 0)); then
    echo "run.sh: REFUSED: the machine is busy (load $(load) > $max_load after waiting $wait_minutes minutes)."
    echo "        Wait for other work to end, or pass --force for a run whose report says it is not a result."
    exit 3
  fi
  echo "run.sh: WARNING: load $(load) > $max_load; running anyway (--force): the report will say it is not a result"
fi

# 4. The run, into a folder named after the date and commit.
commit=$(git rev-parse --short HEAD)
out="benchmarks/results/$(date -u +%Y-%m-%d)-$commit"
for n in 2 3 4 5 6 7 8 9; do
  [[ -e $out ]] || break
  out="benchmarks/results/$(date -u +%Y-%m-%d)-$commit-$n"
done
mkdir -p "$out"
echo "run.sh: writing $out/ (the harness prints its progress; about 75 minutes with the defaults on 2 quiet cores)"
set +e
dotnet run -c Release --no-build --project benchmarks/FileTransfer.Benchmarks.E2E -- \
  --out "$out" --max-load "$max_load" "${harness[@]}" 2> >(tee "$out/console.log" >&2) >/dev/null
status=$?
set -e
echo "run.sh: report $out/report.md (harness exit $status)"

# 5. RESULTS.md: the report of one run that is a result, under a summary you write.
if ((publish == 1)); then
  if ((status == 0)) && grep -q '^\*\*A result\*\*' "$out/report.md"; then
    {
      echo "# FileTransfer benchmark results"
      echo
      echo "The report of one run of \`bash benchmarks/run.sh\`, generated; its raw data (every run in \`runs.csv\`,"
      echo "each server's configuration in \`peers/\`, their logs) is in [$out/]($(basename "$(dirname "$out")")/$(basename "$out")/)."
      echo "Earlier runs are in git history, not here."
      echo
      echo "## Written summary"
      echo
      echo "<!-- Write here, after reading the report: what was met, what was missed, and the measured cause of"
      echo "     each miss where the run shows it (which row, which figure). Keep it short; the numbers stay below. -->"
      echo "(to be written)"
      echo
      # One heading level down, under this file's title (the report has no other line starting with '#').
      sed -E 's/^(#+) /#\1 /' "$out/report.md"
    } >benchmarks/RESULTS.md
    echo "run.sh: benchmarks/RESULTS.md now holds this report; write its summary, then commit it with $out/"
  else
    echo "run.sh: benchmarks/RESULTS.md left alone: this run is not a result (see the top of $out/report.md)"
  fi
fi
exit $status
