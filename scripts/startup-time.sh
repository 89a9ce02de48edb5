#!/usr/bin/env bash
# Measures the time from `npm start` to the first answered request on the embedded default:
# once on a fresh DATA_DIR (migrations and demo seed included), once on a restart of the same data.
# It prints the machine (CPU model, cores, Node) and its load first: a start time means little without
# them, and on a shared machine the load moves it by a factor of two.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-4123}
if curl -s -o /dev/null "http://127.0.0.1:$port/"; then echo "port $port is in use" >&2; exit 1; fi
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

measure() {
  local label=$1 started now pid
  started=$(date +%s%N)
  # Its own process group, so the whole npm -> tsx -> node chain can be stopped together.
  DATA_DIR=$data PORT=$port LOG_LEVEL=warn setsid npm start --silent >/dev/null 2>&1 &
  pid=$!
  until curl -fs -o /dev/null "http://127.0.0.1:$port/v1/list-clerks.php?key=demo-partner-key"; do
    kill -0 "$pid" 2>/dev/null || { echo "npm start exited early" >&2; exit 1; }
    sleep 0.05
  done
  now=$(date +%s%N)
  printf '%-28s %6d ms\n' "$label" $(((now - started) / 1000000))
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # Until nothing accepts connections on the port any more (any HTTP answer means still up).
  while curl -s -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; do sleep 0.1; done
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "machine: ${cpu:-unknown CPU}, $(nproc) cores, Node $(node --version); load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
measure "first start (migrate + seed)"
measure "restart (data kept)"
