#!/usr/bin/env bash
# Starts the single-node cluster in the container and keeps it up; docker stop (SIGTERM) stops its
# daemons in order. The container ends when one of them dies, so that compose restarts it.
set -euo pipefail
: "${CEPH_RGW_ACCESS_KEY:?set CEPH_RGW_ACCESS_KEY (the S3 access key the replicas use)}"
: "${CEPH_RGW_SECRET_KEY:?set CEPH_RGW_SECRET_KEY (the S3 secret key the replicas use)}"
dir=/var/lib/ft-ceph
script=/opt/ceph-rgw/ceph-rgw.sh
rm -rf "$dir"
# The env file the script prints holds the secret key: keep it out of the container's log.
bash "$script" start "$dir" >/dev/null
echo "ceph-rgw: S3 on port ${CEPH_RGW_PORT}"
trap 'bash "$script" stop "$dir"; exit 0' TERM INT
while bash "$script" status "$dir" >/dev/null 2>&1; do
  sleep 5 &
  wait $!
done
echo "ceph-rgw: a daemon stopped" >&2
bash "$script" status "$dir" >&2 || true
exit 1
