#!/usr/bin/env bash
# A queue's backlog, mikyu against ActiveMQ Artemis: 4 producers send MESSAGES persistent 1 KiB messages to a queue
# nobody consumes, then 4 consumers drain it, in a JVM of HEAP (256 MiB) where the backlog does not fit; and the
# same with BASE_MESSAGES in a JVM of BASE_HEAP, a backlog that fits, so that each provider's rates at the small heap
# can be compared with its own when memory is no object. Providers and sizes interleaved, REPS rounds, each run in a
# fresh JVM with a fresh directory after a `sync`. See bench/jms/README.md ("A backlog").
#
# Environment: REPS (3), MESSAGES (1000000), BASE_MESSAGES (100000), HEAP (256m), BASE_HEAP (2g),
#   PROVIDERS ("mikyu artemis"), TRANSPORT vm|tcp (vm; tcp: the broker in a JVM of its own with the heap under test,
#   the bench client at 1 GiB), SIZE bytes (1024), DATA_DIR (bench/jms/target/runs), PORTS (29700), BUILD (1).
# Prints every run (produce and drain msgs/s, heap high-water and heap after GC, GC time), then per provider the
# medians and the ratios big / base, and mikyu / Artemis. A run that loses, duplicates or fails (an
# OutOfMemoryError included) is reported and counted; the script exits 2 at the end if any did.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BENCH=backlog-ratio
# shellcheck source=lib.sh
. "$here/lib.sh"
REPS="${REPS:-3}"
MESSAGES="${MESSAGES:-1000000}"
BASE_MESSAGES="${BASE_MESSAGES:-100000}"
HEAP="${HEAP:-256m}"
BASE_HEAP="${BASE_HEAP:-2g}"
PROVIDERS="${PROVIDERS:-mikyu artemis}"
TRANSPORT="${TRANSPORT:-vm}"
SIZE="${SIZE:-1024}"
DATA_DIR="${DATA_DIR:-$here/target/runs}"
PORTS="${PORTS:-29700}"
BUILD="${BUILD:-1}"
CASE=q_backlog_persist_async_4p4c
[[ "$TRANSPORT" == vm || "$TRANSPORT" == tcp ]] || { echo "backlog-ratio: TRANSPORT is vm or tcp" >&2; exit 64; }
read -r -a providers <<< "$PROVIDERS"

bench_jar
logs="$here/target/backlog-ratio-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$logs" "$DATA_DIR"
results="$logs/results.tsv"
: > "$results"

trap stop_broker EXIT

echo "backlog over $TRANSPORT: ${providers[*]} interleaved, $REPS reps; big: $MESSAGES msgs at -Xmx$HEAP," \
     "base: $BASE_MESSAGES msgs at -Xmx$BASE_HEAP; $SIZE B persistent (async) messages; logs in $logs"
failures=0
run=0
for ((rep = 1; rep <= REPS; rep++)); do
    for p in "${providers[@]}"; do
        for size in base big; do
            if [[ "$size" == big ]]; then messages="$MESSAGES"; heap="$HEAP"; else messages="$BASE_MESSAGES"; heap="$BASE_HEAP"; fi
            dir="$DATA_DIR/backlog-$p-$size-$rep"
            rm -rf "$dir"
            mkdir -p "$dir"
            log="$logs/$p-$size-$rep.log"
            port_args=()
            bench_heap="$heap"
            sync
            load_before="$(cut -d' ' -f1 /proc/loadavg)"
            if [[ "$TRANSPORT" == tcp ]]; then
                port=$((PORTS + run % 100))
                start_broker "$p" "$CASE" "$dir" "$port" "$logs/$p-$size-$rep.broker.log" "-Xmx$heap" || { failures=$((failures + 1)); continue; }
                port_args=(--port "$port")
                bench_heap=1g
            fi
            run=$((run + 1))
            set +e
            java "-Xmx$bench_heap" "$native" -cp "$cp" io.mikyu.bench.jms.JmsBench --case "$CASE" \
                --jndi "$here/jndi/$p-$TRANSPORT.properties" --dir "$dir" "${port_args[@]}" \
                --messages "$messages" --size "$SIZE" > "$log" 2>&1
            status=$?
            set -e
            if [[ -n "$broker_pid" ]] && ! kill -0 "$broker_pid" 2>/dev/null; then
                status=1
                echo "  the $p broker died during the run: $logs/$p-$size-$rep.broker.log" >&2
            fi
            stop_broker
            load_after="$(cut -d' ' -f1 /proc/loadavg)"
            rm -rf "$dir"
            result="$(sed -n 's/^JMSBENCH_RESULT //p' "$log" | tail -1)"
            if [[ $status != 0 || -z "$result" ]]; then
                failures=$((failures + 1))
                echo "  run $rep  $p  $size ($messages msgs, -Xmx$heap)  FAILED (exit $status), its output: $log" >&2
                grep -E '^  (sent|provider)|Error|Exception|jms-bench:' "$log" | head -6 | sed 's/^/      /' >&2 || true
                continue
            fi
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$p" "$size" "$(field producePerS "$result")" \
                "$(field drainPerS "$result")" "$(field produceLiveHeapPeakMB "$result")" \
                "$(field drainLiveHeapPeakMB "$result")" \
                "$(( $(field produceGcMs "$result") + $(field drainGcMs "$result") ))" >> "$results"
            printf '  run %d  %-7s %-4s %9s msgs -Xmx%-5s produce %9.0f/s  drain %9.0f/s  heap after GC %4s / %4s MB  GC %5s / %5s ms  verified  (load %s -> %s)\n' \
                "$rep" "$p" "$size" "$messages" "$heap" "$(field producePerS "$result")" "$(field drainPerS "$result")" \
                "$(field produceLiveHeapPeakMB "$result")" "$(field drainLiveHeapPeakMB "$result")" \
                "$(field produceGcMs "$result")" "$(field drainGcMs "$result")" "$load_before" "$load_after"
        done
    done
done

echo
echo "medians over $REPS runs ($TRANSPORT):"
printf '| %-8s | %-4s | %12s | %12s | %18s | %10s |\n' provider size "produce /s" "drain /s" "heap after GC, MB" "GC ms"
declare -A prod drain
for p in "${providers[@]}"; do
    for size in base big; do
        col() { awk -F'\t' -v p="$p" -v s="$size" -v c="$1" '$2 == p && $3 == s { print $c }' "$results"; }
        # shellcheck disable=SC2046
        prod[$p-$size]="$(median $(col 4))"
        # shellcheck disable=SC2046
        drain[$p-$size]="$(median $(col 5))"
        # shellcheck disable=SC2046
        printf '| %-8s | %-4s | %12.0f | %12.0f | %8s / %-7s | %10s |\n' "$p" "$size" "${prod[$p-$size]}" \
            "${drain[$p-$size]}" "$(median $(col 6))" "$(median $(col 7))" "$(median $(col 8))"
    done
done
for p in "${providers[@]}"; do
    echo "$p big / base: produce $(ratio "${prod[$p-big]}" "${prod[$p-base]}"), drain $(ratio "${drain[$p-big]}" "${drain[$p-base]}")"
done
if (( ${#providers[@]} >= 2 )); then
    a="${providers[0]}"
    b="${providers[1]}"
    echo "$a / $b, big: produce $(ratio "${prod[$a-big]}" "${prod[$b-big]}"), drain $(ratio "${drain[$a-big]}" "${drain[$b-big]}")"
    echo "BACKLOG_RATIO {\"transport\":\"$TRANSPORT\",\"messages\":$MESSAGES,\"heap\":\"$HEAP\",\"a\":\"$a\",\"b\":\"$b\",\"produceA\":${prod[$a-big]/nan/null},\"produceB\":${prod[$b-big]/nan/null},\"drainA\":${drain[$a-big]/nan/null},\"drainB\":${drain[$b-big]/nan/null},\"produceBigOverBaseA\":\"$(ratio "${prod[$a-big]}" "${prod[$a-base]}")\",\"drainBigOverBaseA\":\"$(ratio "${drain[$a-big]}" "${drain[$a-base]}")\"}"
fi
if (( failures > 0 )); then
    echo "$failures run(s) FAILED: see $logs" >&2
    exit 2
fi
