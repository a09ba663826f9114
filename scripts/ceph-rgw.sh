#!/usr/bin/env bash
# A single-node Ceph with the RADOS Gateway (S3) on loopback, for tests and CI: one monitor, one
# memstore OSD (no disk, size capped), one radosgw on a free 127.0.0.1 port, and an S3 user.
#
#   scripts/ceph-rgw.sh install                  apt-get installs radosgw, ceph-mon, ceph-osd when missing
#   scripts/ceph-rgw.sh start DIR [--owner PID]  starts everything under DIR (absent or empty), writes
#                                                DIR/env (FT_S3_SERVICE_URL, FT_S3_ACCESS_KEY,
#                                                FT_S3_SECRET_KEY) and prints it; with --owner, the
#                                                cluster stops itself when process PID ends
#   scripts/ceph-rgw.sh status DIR               each daemon's pid, state and RSS; exit 3 if one is down
#   scripts/ceph-rgw.sh stop DIR                 stops exactly the daemons started in DIR, removes DIR
#
# Everything of one cluster (config, run dir, pid files, admin sockets, logs, data) lives in DIR and
# every command gets `-c DIR/ceph.conf` (CEPH_CONF too), and the monitor and the gateway take free
# ports: two clusters in two folders run side by side. Loopback only: authentication is off.
# Settings and their reasons: docs/ceph-rgw.md and ../shared/CEPH-RGW.md.
set -euo pipefail

# The OSD's memstore keeps every object in memory and reports this as its device size. Past it
# (checked every few seconds, so a burst overshoots) the OSD flags itself full and writes then block,
# they do not fail: an S3 PUT hangs. Memory is only used as data arrives.
memstore_bytes=${CEPH_RGW_MEMSTORE_BYTES:-2147483648}
# A container (deploy/ceph-rgw) fixes what tests leave to chance: the gateway's address and port
# (CEPH_RGW_LISTEN, default 127.0.0.1; CEPH_RGW_PORT, default a free one) and the S3 user's keys
# (CEPH_RGW_ACCESS_KEY, CEPH_RGW_SECRET_KEY, default random).
# Bounds for each step, in seconds.
mon_timeout=30
rgw_timeout=90

die() {
  echo "ceph-rgw: $*" >&2
  exit 1
}

usage() {
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# --- install -------------------------------------------------------------------------------------

install_packages() {
  local missing=()
  command -v radosgw >/dev/null 2>&1 || missing+=(radosgw)
  command -v ceph-mon >/dev/null 2>&1 || missing+=(ceph-mon)
  command -v ceph-osd >/dev/null 2>&1 || missing+=(ceph-osd)
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "Installing Ceph: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- helpers -------------------------------------------------------------------------------------

# A port the kernel considers free on 127.0.0.1 right now (python3 comes with ceph-common).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# N random bytes as upper-case hex.
random_hex() {
  od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n' | tr a-f A-F
}

# The pid recorded for daemon $2 of cluster $1, if that process is still one of this cluster's: a pid
# reused by an unrelated process after the daemon died does not carry this cluster's config path.
live_pid() {
  local dir=$1 name=$2 pid command
  [[ -f $dir/pids/$name ]] || return 1
  pid=$(<"$dir/pids/$name")
  command=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
  [[ $command == *" $dir/ceph.conf "* ]] || return 1
  echo "$pid"
}

rss_kib() {
  awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0
}

# Starts daemon NAME in the background with its output in DIR/log/NAME.out and records its pid.
spawn() {
  local dir=$1 name=$2
  shift 2
  "$@" </dev/null >"$dir/log/$name.out" 2>&1 &
  echo $! >"$dir/pids/$name"
}

# Prints why daemon NAME (log file LOG) failed: the tail of its log and of its standard output.
explain() {
  local dir=$1 name=$2 log=$3
  echo "ceph-rgw: --- last lines of $log ---" >&2
  tail -n 40 "$log" >&2 2>/dev/null || echo "(no log)" >&2
  if [[ -s $dir/log/$name.out ]]; then
    echo "ceph-rgw: --- last lines of $dir/log/$name.out ---" >&2
    tail -n 20 "$dir/log/$name.out" >&2
  fi
}

# Fails the start: names the step, shows the daemon's log, stops what this run started and keeps
# DIR (logs) for a look; `stop DIR` removes it.
fail() {
  local dir=$1 name=$2 log=$3 message=$4
  echo "ceph-rgw: $message" >&2
  explain "$dir" "$name" "$log"
  kill_daemons "$dir"
  echo "ceph-rgw: start FAILED; logs kept in $dir (remove with: $0 stop $dir)" >&2
  exit 1
}

# The ceph command, bounded. A refusal with EPERM is tried again: with authentication off, a client
# can send its first command before its monitor client has the cluster's monmap, so with a zero fsid,
# and the monitor refuses it ("wrong fsid"). Its first monitor client (the one that fetches the
# config) already put the monitor's address into the process, so the second one starts from an
# address-only monmap without the configured fsid (Ceph 16, MonMap::build_initial).
ceph_cli() {
  local dir=$1 attempt status
  shift
  for attempt in 1 2 3 4 5; do
    status=0
    timeout $((mon_timeout + 10)) ceph -c "$dir/ceph.conf" --connect-timeout "$mon_timeout" "$@" 2>"$dir/log/ceph-cli.err" || status=$?
    if ((status == 0)); then return 0; fi
    if ! grep -q EPERM "$dir/log/ceph-cli.err"; then break; fi
    echo "ceph-rgw: 'ceph $*' refused with EPERM (attempt $attempt), trying again" >>"$dir/log/ceph-cli.retries"
    sleep 0.2
  done
  cat "$dir/log/ceph-cli.err" >&2
  return "$status"
}

# Stops every daemon of the cluster (and its --owner watcher) with SIGTERM, one after the other:
# the gateway, the OSD, the monitor, each in about 0.1-0.3 s. Together they take 5 s and more (the
# gateway waits for the OSD it is unregistering from). A daemon still there after 5 s is killed. A
# daemon counts as gone once its command line is: a zombie that no init reaped yet has none.
kill_daemons() {
  local dir=$1 pid
  [[ -d $dir/pids ]] || return 0
  if [[ -f $dir/pids/watch ]]; then
    pid=$(<"$dir/pids/watch")
    # The watcher's own stop must not kill itself halfway.
    if [[ $pid != "${CEPH_RGW_WATCHER:-}" ]]; then kill -TERM "$pid" 2>/dev/null || true; fi
  fi
  terminate "$dir" rgw
  terminate "$dir" osd
  terminate "$dir" mon
}

terminate() {
  local dir=$1 name=$2 pid
  pid=$(live_pid "$dir" "$name") || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in {1..100}; do
    live_pid "$dir" "$name" >/dev/null || return 0
    sleep 0.05
  done
  echo "ceph-rgw: $name (pid $pid) still running 5 s after SIGTERM: killed" >&2
  kill -KILL "$pid" 2>/dev/null || true
}

# --- start ---------------------------------------------------------------------------------------

write_config() {
  local dir=$1 fsid=$2 mon_port=$3 rgw_port=$4
  cat >"$dir/ceph.conf" <<EOF
# Written by scripts/ceph-rgw.sh: a throw-away single-node cluster on loopback.
[global]
fsid = $fsid
mon host = v1:127.0.0.1:$mon_port
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
# msgr v1 only: with msgr2 on, radosgw hung at start with error -13.
ms bind msgr2 = false
ms bind ipv6 = false
# Loopback only, thrown away after the run.
auth cluster required = none
auth service required = none
auth client required = none
# One OSD: every pool keeps one copy, and CRUSH chooses among OSDs, not hosts.
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
# Paxos commits every 50 ms instead of 1 s: start-up 14 s -> 3 s.
paxos propose interval = 0.05
# Everything of this cluster under $dir.
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
crash dir = $dir/crash
mon data = $dir/mon/\$id
osd data = $dir/osd/\$id
rgw data = $dir/rgw
log to stderr = false
err to stderr = false
mon cluster log file = $dir/log/cluster.log

[mon]
# A nearly full disk must not stop a test cluster (the monitor keeps only its own small store).
mon data avail crit = 0

[osd]
osd objectstore = memstore
memstore device bytes = $memstore_bytes
osd journal = $dir/osd/\$id/journal
# The script places the OSD in CRUSH itself (weight 1; memstore's size-derived weight rounds to 0).
osd crush update on start = false
# No device class either: the OSD's own "osd crush set-device-class" at boot can leave with a zero
# fsid (see ceph_cli in the script); the monitor refuses it ("wrong fsid") and the OSD exits. Seen in
# about one start of three. So the OSD sends no command at boot.
osd class update on start = false

[client]
# The ceph and radosgw-admin commands: no admin socket (several may run at once), one log.
admin socket =
log file = $dir/log/client.log

[client.rgw.ft]
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
rgw frontends = beast endpoint=${CEPH_RGW_LISTEN:-127.0.0.1}:$rgw_port
# 64 request threads instead of 512: plenty for tests on two cores.
rgw thread pool size = 64
# Deleted and overwritten objects' data (past the 4 MiB head, e.g. multipart parts) is freed by the
# gateway's garbage collector, by default 2 h later; the memstore OSD holds it in memory till then.
rgw gc obj min wait = 60
rgw gc processor period = 60
EOF
}

start() {
  local dir=$1 owner=${2:-}
  for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool ceph-authtool python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run '$0 install' first"
  done
  if [[ -e $dir && -n $(ls -A "$dir" 2>/dev/null) ]]; then
    die "$dir exists and is not empty: choose a new folder (a running cluster stops with '$0 stop $dir')"
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  # Unix socket paths are limited to 107 bytes.
  if ((${#dir} > 70)); then die "$dir is too long for the admin sockets inside it (70 characters at most)"; fi
  mkdir -p "$dir"/{run,pids,log,crash,mon/a,osd/0,rgw}
  export CEPH_CONF=$dir/ceph.conf

  local began=$EPOCHREALTIME
  local fsid mon_port rgw_port osd_uuid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  mon_port=$(free_port)
  rgw_port=${CEPH_RGW_PORT:-$(free_port)}
  while [[ $rgw_port == "$mon_port" ]]; do rgw_port=$(free_port); done
  write_config "$dir" "$fsid" "$mon_port" "$rgw_port"

  # Monitor: a monmap with one v1 address and a mon. keyring, then the daemon in the foreground.
  local conf=$dir/ceph.conf
  monmaptool --create --clobber --fsid "$fsid" --addv a "[v1:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
  ceph-authtool --create-keyring "$dir/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  if ! ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/mon.keyring" >"$dir/log/mon-mkfs.out" 2>&1; then
    fail "$dir" mon-mkfs "$dir/log/mon-mkfs.out" "ceph-mon --mkfs failed"
  fi
  spawn "$dir" mon ceph-mon -c "$conf" -i a -f

  # OSD: registered with the monitor, formatted, placed in CRUSH under root=default, started.
  local osd_id
  if ! osd_id=$(ceph_cli "$dir" osd create "$osd_uuid"); then
    fail "$dir" mon "$dir/log/mon.a.log" "the monitor did not answer within ${mon_timeout} s (port $mon_port)"
  fi
  [[ $osd_id == 0 ]] || fail "$dir" mon "$dir/log/mon.a.log" "expected OSD id 0, the monitor gave '$osd_id'"
  if ! ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >"$dir/log/osd-mkfs.out" 2>&1; then
    fail "$dir" osd-mkfs "$dir/log/osd.0.log" "ceph-osd --mkfs failed"
  fi
  {
    ceph_cli "$dir" osd crush add-bucket localhost host &&
      ceph_cli "$dir" osd crush move localhost root=default &&
      ceph_cli "$dir" osd crush add osd.0 1.0 host=localhost
  } >"$dir/log/crush.out" 2>&1 || fail "$dir" mon "$dir/log/crush.out" "placing osd.0 in the CRUSH map failed"
  spawn "$dir" osd ceph-osd -c "$conf" -i 0 -f

  # Gateway: it creates its pools once the OSD is up; ready when the S3 endpoint answers.
  spawn "$dir" rgw radosgw -c "$conf" -n client.rgw.ft -f
  local url=http://127.0.0.1:$rgw_port deadline=$((SECONDS + rgw_timeout))
  until curl -fsS -o /dev/null --max-time 2 "$url/" 2>/dev/null; do
    local name log
    for name in mon osd rgw; do
      if ! live_pid "$dir" "$name" >/dev/null; then
        case $name in mon) log=$dir/log/mon.a.log ;; osd) log=$dir/log/osd.0.log ;; rgw) log=$dir/log/client.rgw.ft.log ;; esac
        fail "$dir" "$name" "$log" "the $name daemon exited during start-up"
      fi
    done
    if ((SECONDS >= deadline)); then
      ceph_cli "$dir" -s >&2 2>&1 || true
      fail "$dir" rgw "$dir/log/client.rgw.ft.log" "the gateway did not answer on $url within ${rgw_timeout} s"
    fi
    sleep 0.2
  done

  # The S3 user, with keys made here.
  local access_key secret_key
  access_key=${CEPH_RGW_ACCESS_KEY:-$(random_hex 10)}
  secret_key=${CEPH_RGW_SECRET_KEY:-$(random_hex 20)}
  if ! timeout 60 radosgw-admin -c "$conf" user create --uid=filetransfer --display-name=FileTransfer \
    --access-key="$access_key" --secret-key="$secret_key" >"$dir/log/user.out" 2>&1; then
    fail "$dir" user "$dir/log/user.out" "radosgw-admin user create failed"
  fi

  cat >"$dir/env" <<EOF
FT_S3_SERVICE_URL=$url
FT_S3_ACCESS_KEY=$access_key
FT_S3_SECRET_KEY=$secret_key
EOF
  if [[ -n $owner ]]; then
    # Stops the cluster when its owner (a test host) ends without stopping it, e.g. when killed.
    # shellcheck disable=SC2016 # the watcher's own shell expands its arguments
    nohup bash -c 'while [[ -n $(tr -d "\\0" 2>/dev/null <"/proc/$1/cmdline") && -d $3 ]]; do sleep 1; done
      CEPH_RGW_WATCHER=$$ exec bash "$2" stop "$3"' watcher "$owner" "$(realpath "$0")" "$dir" </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/pids/watch"
  fi

  local took rss=0 pid
  took=$(awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  for name in mon osd rgw; do
    pid=$(live_pid "$dir" "$name") && rss=$((rss + $(rss_kib "$pid")))
  done
  echo "ceph-rgw: started in $took s (mon, osd, rgw: $((rss / 1024)) MiB RSS) under $dir" >&2
  cat "$dir/env"
}

# --- status and stop -----------------------------------------------------------------------------

status() {
  local dir=$1 name pid down=0 total=0
  [[ -f $dir/ceph.conf && -d $dir/pids ]] || die "no cluster in $dir"
  dir=$(cd "$dir" && pwd -P)
  for name in mon osd rgw; do
    if pid=$(live_pid "$dir" "$name"); then
      local rss
      rss=$(rss_kib "$pid")
      total=$((total + rss))
      printf '%-4s pid %-8s running  %6d MiB RSS\n' "$name" "$pid" $((rss / 1024))
    else
      printf '%-4s not running\n' "$name"
      down=1
    fi
  done
  printf 'all  %d MiB RSS\n' $((total / 1024))
  if [[ -f $dir/env ]]; then
    cat "$dir/env"
    local url
    url=$(sed -n 's/^FT_S3_SERVICE_URL=//p' "$dir/env")
    if curl -fsS -o /dev/null --max-time 5 "$url/"; then echo "$url/ answers"; else echo "$url/ does not answer"; down=1; fi
  fi
  if ((down)); then exit 3; fi
}

stop() {
  local dir=$1
  [[ -d $dir ]] || return 0
  dir=$(cd "$dir" && pwd -P)
  # Only a folder this script set up is removed.
  if [[ ! -d $dir/pids ]] || ! grep -q '^# Written by scripts/ceph-rgw.sh' "$dir/ceph.conf" 2>/dev/null; then
    die "$dir was not set up by this script: left alone"
  fi
  kill_daemons "$dir"
  rm -rf "$dir"
}

case ${1:-} in
  install) install_packages ;;
  start)
    [[ $# -eq 2 || ($# -eq 4 && $3 == --owner) ]] || usage
    start "$2" "${4:-}"
    ;;
  status) [[ $# -eq 2 ]] || usage; status "$2" ;;
  stop) [[ $# -eq 2 ]] || usage; stop "$2" ;;
  *) usage ;;
esac
