#!/usr/bin/env bash
# Measures the foundation's performance goals as ratios, in one run, on one disk.
#   usage: broker/bench/engine-ratios.sh [DIR]     (DIR defaults to ./target/bench; needs ~8 GiB free)
#   REPS (3): rounds of dd and the seed runs; SEED_BYTES (2GiB); SEED_ONLY=1: dd and the seed runs only;
#   MIKYU_OPTS: the tuned JVM options; DEFAULT_OPTS (empty): the options of the seed's default-options runs
# Prints each measurement's result line and a summary of the ratios at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:-$root/target/bench}"
mikyu="$root/bin/mikyu"
mkdir -p "$dir"
# A throughput collector and a pre-touched heap: the bench measures the engine, not heap growth or G1's
# concurrent work on 2 cores. Each run warms up first so the JIT has compiled the hot paths.
tuned_opts="${MIKYU_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseParallelGC}"
export MIKYU_OPTS="$tuned_opts"
# The seed configuration also runs with the JVM options a user gets without MIKYU_OPTS (DEFAULT_OPTS, empty:
# G1, an initial heap of 1/64 of the RAM), interleaved with the tuned runs.
default_opts="${DEFAULT_OPTS:-}"
reps="${REPS:-3}"
json() { sed -n "s/^$1 //p" | tail -1; }
# Before each measured run: write back what the previous one left dirty, so neither run pays for the other.
settle() { sync; sleep 3; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

# The machine is shared and its disk noisy: dd and the seed bench alternate, and the ratio uses their medians.
echo "== disk: fdatasync latency"
disk=$("$mikyu" bench disk --dir "$dir" --size 256MiB | tee -a /dev/stderr | json BENCH_DISK_RESULT)
# One seed run with the JVM options $1 ("tuned" or "default"); prints its BENCH_RESULT json.
seed_run() {
  local opts="$tuned_opts"; [ "$1" = default ] && opts="$default_opts"
  echo "== rep $rep/$reps: seed config, $1 JVM options (${opts:-none}): 8 workers, async, 1 KiB, batch 64, 1 queue," \
       "tailing consumer" >&2
  settle
  # the same volume as dd's (2 GiB): this virtual disk absorbs a burst much faster than it sustains writes
  MIKYU_OPTS="$opts" "$mikyu" bench run --workers 8 --durability async --message-size 1KiB --batch 64 --queues 1 \
          --bytes "${SEED_BYTES:-2GiB}" --data-dir "$dir/seed" | tee -a /dev/stderr | json BENCH_RESULT
  rm -rf "$dir/seed"
}
dd_all=""; seed_all=""; seed_default_all=""
for rep in $(seq "$reps"); do
  echo "== rep $rep/$reps: dd if=/dev/zero bs=1M count=2048 conv=fdatasync"
  settle
  dd_out=$(dd if=/dev/zero of="$dir/dd.tmp" bs=1M count=2048 conv=fdatasync 2>&1 | tail -1); rm -f "$dir/dd.tmp"
  echo "$dd_out"
  dd_all="$dd_all $(python3 -c "import re,sys; b,s=re.match(r'(\d+) bytes.*copied, ([0-9.]+) s', sys.argv[1]).groups(); print(int(b)/float(s)/1e6)" "$dd_out")"
  # which JVM options go first alternates, so neither always runs right after dd
  if [ $((rep % 2)) = 1 ]; then
    seed_all="$seed_all|$(seed_run tuned)"; seed_default_all="$seed_default_all|$(seed_run default)"
  else
    seed_default_all="$seed_default_all|$(seed_run default)"; seed_all="$seed_all|$(seed_run tuned)"
  fi
done

sync1="{}"; sync8="{}"; reopen=""; task="{}"
if [ -z "${SEED_ONLY:-}" ]; then # SEED_ONLY=1: dd and the seed runs only
echo "== sync, batch 1: 1 worker, then 8 workers"
settle
sync1=$("$mikyu" bench run --workers 1 --durability sync --batch 1 --bytes 8MiB --data-dir "$dir/s1" \
        | tee -a /dev/stderr | json BENCH_RESULT)
rm -rf "$dir/s1"
sync8=$("$mikyu" bench run --workers 8 --durability sync --batch 1 --bytes 48MiB --data-dir "$dir/s8" \
        | tee -a /dev/stderr | json BENCH_RESULT)
rm -rf "$dir/s8"

echo "== reopen of a 5 GiB store"
"$mikyu" bench run --workers 4 --durability async --batch 64 --bytes 5GiB --consumers 0 --data-dir "$dir/big" \
  > /dev/null
reopen=$("$mikyu" bench reopen --data-dir "$dir/big" | tee -a /dev/stderr)
rm -rf "$dir/big"

echo "== task queue: 8 producers, 4 consumers, async, 1 KiB, batch 64: enqueue + dequeue + ack"
settle
task=$("$mikyu" bench run --kind task --workers 8 --durability async --message-size 1KiB --batch 64 --bytes 2GiB \
       --data-dir "$dir/task" | tee -a /dev/stderr | json BENCH_RESULT)
rm -rf "$dir/task"
fi

python3 - "$disk" "$seed_all" "$sync1" "$sync8" "$reopen" "$dd_all" "$task" "$seed_default_all" <<'PY'
import json, statistics, sys
disk, s1, s8 = json.loads(sys.argv[1]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
seeds = [json.loads(x) for x in sys.argv[2].split("|") if x.strip()]
reopen = sys.argv[5]
dds = [float(x) for x in sys.argv[6].split()]
dd = statistics.median(dds)
seed = {k: statistics.median(s[k] for s in seeds) for k in ("produce_mb_per_s", "consume_mb_per_s", "cache_hit_rate")}
print("\nSUMMARY (medians of %d interleaved runs; dd runs %s MB/s; seed produce runs %s MB/s, tuned JVM options)" % (
    len(seeds), [round(x) for x in dds], [round(s["produce_mb_per_s"]) for s in seeds]))
pairs = [s["produce_mb_per_s"] / d for s, d in zip(seeds, dds)]
print(f"seed produce, tuned JVM options: {seed['produce_mb_per_s']:.0f} MB/s vs dd {dd:.0f} MB/s: ratio of medians {seed['produce_mb_per_s']/dd:.2f},"
      f" median of paired ratios {statistics.median(pairs):.2f} {[round(p, 2) for p in pairs]} (goal >= 0.7)")
print(f"seed consume {seed['consume_mb_per_s']:.0f} MB/s; ring-cache hit rate {seed['cache_hit_rate']:.3f} (goal >= 0.95)")
def usage(runs):
    return ", ".join(f"{r.get('cpu_utilisation', 0) * 100:.0f} % CPU, GC {r.get('gc_pauses', 0)} pauses"
                     f" {r.get('gc_pause_s', 0):.2f} s" for r in runs)
defaults = [json.loads(x) for x in sys.argv[8].split("|") if x.strip()]
dmed = statistics.median(s["produce_mb_per_s"] for s in defaults)
dpairs = [s["produce_mb_per_s"] / d for s, d in zip(defaults, dds)]
print(f"seed produce, default JVM options: {dmed:.0f} MB/s vs dd {dd:.0f} MB/s: ratio of medians {dmed/dd:.2f},"
      f" median of paired ratios {statistics.median(dpairs):.2f} {[round(p, 2) for p in dpairs]} (goal >= 0.7)")
print(f"seed runs, tuned: {usage(seeds)}")
print(f"seed runs, default: {usage(defaults)}")
if not s1:
    sys.exit(0)
print(f"sync batch 1: 8 workers {s8['produce_msgs_per_s']:.0f} msgs/s vs 1 worker {s1['produce_msgs_per_s']:.0f}: ratio {s8['produce_msgs_per_s']/s1['produce_msgs_per_s']:.2f} (goal >= 5)")
fd = disk["fdatasync_overwrite_p50_us"]
print(f"sync 1 worker p50 {s1['p50_us']:.0f} us vs fdatasync p50 {fd:.0f} us (append-growing file {disk['fdatasync_append_p50_us']:.0f} us): ratio {s1['p50_us']/fd:.2f} (goal <= 2)")
print(f"reopen: {reopen.strip().splitlines()[-1]} (goal < 2 s)")
task = json.loads(sys.argv[7])
seed_msgs = statistics.median(s["produce_msgs_per_s"] for s in seeds)
print(f"task enqueue+dequeue+ack {task['consume_msgs_per_s']:.0f} acked msgs/s (enqueued {task['produce_msgs_per_s']:.0f} msgs/s)"
      f" vs seed log produce {seed_msgs:.0f} msgs/s: ratio {task['consume_msgs_per_s']/seed_msgs:.2f} (goal >= 0.3)")
PY
