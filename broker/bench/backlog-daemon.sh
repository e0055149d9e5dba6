#!/usr/bin/env bash
# A task-queue backlog larger than the daemon's heap, over TCP: a `mikyu daemon` at -Xmx256m gets BYTES of tasks
# from a bench client with no consumer running, is stopped (SIGTERM: a clean close writes the ledger checkpoint) and
# started again, and the client's consumers then drain and verify every task. Alternates with a reference run whose
# daemon holds every task in memory (a backlog that fits), and prints each run's rates, the daemon's reopen (its
# store's open time, from its 'listening' line), heap high-water and GC time (from its GC logs, both processes), and
# the ratios of the medians.
#   usage: broker/bench/backlog-daemon.sh [DIR]   (DIR defaults to ./target/bench-backlog; needs BYTES + 10 % free)
#   BYTES (2GiB), REPS (1), WORKERS (4), CONSUMERS (4), SIZE (1KiB), DURABILITY (async), PORT (7432),
#   DAEMON_OPTS (-Xmx256m), REF_OPTS (-Xmx4g -Dmikyu.taskWindow=0; empty: no reference run), CLIENT_OPTS (-Xmx1g)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$root/target/bench-backlog}"
mikyu="$root/bin/mikyu"
reps="${REPS:-1}"; port="${PORT:-7432}"; target="tcp://127.0.0.1:$port"
daemon_opts="${DAEMON_OPTS:--Xmx256m}"; ref_opts="${REF_OPTS--Xmx4g -Dmikyu.taskWindow=0}"
client_opts="${CLIENT_OPTS:--Xmx1g}"
config=(--kind task --backlog --workers "${WORKERS:-4}" --consumers "${CONSUMERS:-4}" --message-size "${SIZE:-1KiB}"
        --durability "${DURABILITY:-async}" --bytes "${BYTES:-2GiB}")
mkdir -p "$dir"
daemon=""; bench=""

cleanup() {
  [ -n "$bench" ] && kill "$bench" 2>/dev/null && wait "$bench" 2>/dev/null
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$dir/store"
}
trap cleanup EXIT

# start_daemon OPTS NAME: a daemon on $dir/store, its output in NAME.out and its GC log in NAME.gc.log.
start_daemon() {
  # shellcheck disable=SC2086
  MIKYU_OPTS="$1 -Xlog:gc:file=$dir/$2.gc.log" "$mikyu" daemon --data-dir "$dir/store" --target "$target" \
    > "$dir/$2.out" 2>&1 &
  daemon=$!
  until grep -q "listening" "$dir/$2.out" 2>/dev/null; do
    if ! kill -0 "$daemon" 2>/dev/null; then cat "$dir/$2.out" >&2; echo "the daemon exited" >&2; exit 1; fi
    sleep 0.1
  done
  cat "$dir/$2.out"
}

stop_daemon() {
  kill -TERM "$daemon"
  wait "$daemon" || true
  daemon=""
}

# one_run NAME DAEMON_OPTS: produce, restart the daemon, drain; the bench's result in NAME.result.
one_run() {
  rm -rf "$dir/store"
  sync
  echo "== $1: daemon $2, client $client_opts, ${config[*]}"
  start_daemon "$2" "$1-1"
  # shellcheck disable=SC2086
  MIKYU_OPTS="$client_opts" "$mikyu" bench run "${config[@]}" --access remote --target "$target" \
    > "$dir/$1.result" 2> "$dir/$1.progress" &
  bench=$!
  until grep -q "waiting for the daemon" "$dir/$1.progress" 2>/dev/null; do
    if ! kill -0 "$bench" 2>/dev/null; then cat "$dir/$1.progress" "$dir/$1.result" >&2; exit 1; fi
    sleep 0.2
  done
  stop_daemon
  start_daemon "$2" "$1-2"
  rc=0; wait "$bench" || rc=$?
  bench=""
  stop_daemon
  cat "$dir/$1.result"
  [ "$rc" = 0 ] || { echo "the bench failed ($rc)" >&2; tail -20 "$dir/$1.progress" >&2; exit 1; }
}

names=()
for rep in $(seq "$reps"); do
  # Alternate which side goes first, so neither always meets the other's dirty pages.
  if [ -z "$ref_opts" ]; then order=(backlog); elif [ $((rep % 2)) = 1 ]; then order=(backlog reference)
  else order=(reference backlog); fi
  for side in "${order[@]}"; do
    if [ "$side" = backlog ]; then opts="$daemon_opts"; else opts="$ref_opts"; fi
    one_run "$side-$rep" "$opts"
    names+=("$side-$rep")
  done
done

python3 - "$dir" "${names[@]}" <<'PY'
import json, re, statistics, sys
d, names = sys.argv[1], sys.argv[2:]
unit = {"K": 1 / 1024, "M": 1, "G": 1024}
def gc(name):
    peak = after = ms = n = 0
    for part in (1, 2):
        for line in open(f"{d}/{name}-{part}.gc.log"):
            m = re.search(r"Pause.* (\d+)([KMG])->(\d+)([KMG])\(\d+[KMG]\) ([\d.]+)ms", line)
            if m:
                peak = max(peak, int(m[1]) * unit[m[2]]); after = max(after, int(m[3]) * unit[m[4]])
                ms += float(m[5]); n += 1
    return peak, after, ms, n
rows = {}
for name in names:
    r = json.loads([l for l in open(f"{d}/{name}.result") if l.startswith("BENCH_RESULT ")][-1][13:])
    opened = re.search(r"opened in ([\d.]+) s", open(f"{d}/{name}-2.out").read())[1]
    oom = any("OutOfMemoryError" in open(f"{d}/{name}-{p}.out").read() for p in (1, 2))
    peak, after, ms, n = gc(name)
    rows[name] = dict(produce=r["produce_mb_per_s"], drain=r["consume_mb_per_s"], reopen=float(opened), peak=peak,
                      after=after, gc_ms=ms, gc_n=n, wall=r["produce_s"] + r["consume_s"], ok=r["verified"] and not oom)
    x = rows[name]
    print(f"{name:12s} produce {x['produce']:7.1f} MB/s  drain {x['drain']:7.1f} MB/s  daemon reopen {x['reopen']:.3f} s"
          f"  heap peak {x['peak']:.0f} MiB, after GC {x['after']:.0f} MiB at most  GC {x['gc_ms'] / 1000:.1f} s in"
          f" {x['gc_n']} pauses  {'verified' if x['ok'] else 'FAILED'}")
sides = {s: [v for k, v in rows.items() if k.startswith(s + "-")] for s in ("backlog", "reference")}
if sides["reference"]:
    for key in ("produce", "drain"):
        b = statistics.median(x[key] for x in sides["backlog"]); f = statistics.median(x[key] for x in sides["reference"])
        print(f"{key:8s} median backlog {b:.1f} MB/s, reference {f:.1f} MB/s: ratio {b / f:.2f}")
PY
