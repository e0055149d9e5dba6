#!/usr/bin/env bash
# Measures a daemon over the network against the embedded engine: the same bench config, embedded and remote
# (a `mikyu daemon` started first as its own process, on loopback), alternating, and the ratio of the medians.
#   usage: broker/bench/remote-ratio.sh [DIR]     (DIR defaults to ./target/bench; needs ~2 GiB free)
#   REPS (5), BYTES (1GiB), WORKERS (8), BATCH (64), SIZE (1KiB), DURABILITY (async), PORT (7431), WARMUP (10s)
#   DIR on a tmpfs (such as /dev/shm/mikyu-bench) takes the disk out: both sides then measure CPU per byte.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$root/target/bench}"
mikyu="$root/bin/mikyu"
reps="${REPS:-5}"; bytes="${BYTES:-1GiB}"; port="${PORT:-7431}"
config=(--workers "${WORKERS:-8}" --durability "${DURABILITY:-async}" --message-size "${SIZE:-1KiB}"
        --batch "${BATCH:-64}" --queues 1 --bytes "$bytes" --warmup "${WARMUP:-10s}")
mkdir -p "$dir"
opts="-Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:+UseParallelGC"
json() { sed -n "s/^$1 //p" | tail -1; }
settle() { sync; sleep 3; }

rm -rf "$dir/daemon"
MIKYU_OPTS="$opts" "$mikyu" daemon --data-dir "$dir/daemon" --target "tcp://127.0.0.1:$port" > "$dir/daemon.out" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; rm -rf "$dir/daemon" "$dir/embedded"' EXIT
for _ in $(seq 100); do grep -q "listening" "$dir/daemon.out" 2>/dev/null && break; sleep 0.1; done
cat "$dir/daemon.out"
target="tcp://127.0.0.1:$port"

embedded_all=""; remote_all=""
for rep in $(seq "$reps"); do
  echo "== rep $rep/$reps: embedded ${config[*]}"
  settle
  e=$(MIKYU_OPTS="$opts" "$mikyu" bench run "${config[@]}" --data-dir "$dir/embedded" | tee -a /dev/stderr | json BENCH_RESULT)
  rm -rf "$dir/embedded"
  embedded_all="$embedded_all|$e"
  echo "== rep $rep/$reps: remote --target $target ${config[*]}"
  settle
  r=$(MIKYU_OPTS="$opts" "$mikyu" bench run "${config[@]}" --access remote --target "$target" | tee -a /dev/stderr | json BENCH_RESULT)
  "$mikyu" delete bench-0 --target "$target" > /dev/null
  remote_all="$remote_all|$r"
done

python3 - "$embedded_all" "$remote_all" <<'PY'
import json, statistics, sys
def runs(s): return [json.loads(x) for x in s.split("|") if x]
e, r = runs(sys.argv[1]), runs(sys.argv[2])
for key in ("produce_mb_per_s", "consume_mb_per_s", "produce_msgs_per_s"):
    em = statistics.median(x[key] for x in e); rm = statistics.median(x[key] for x in r)
    print(f"{key:20s} embedded {' '.join(f'{x[key]:,.0f}' for x in e)} (median {em:,.0f})"
          f" | remote {' '.join(f'{x[key]:,.0f}' for x in r)} (median {rm:,.0f}) | ratio {rm / em:.2f}")
for name, xs in (("embedded", e), ("remote", r)):
    print(f"{name:8s} append p50/p99 us: " + ", ".join(f"{x['p50_us']:.0f}/{x['p99_us']:.0f}" for x in xs))
PY
