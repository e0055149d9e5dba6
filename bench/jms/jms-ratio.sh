#!/usr/bin/env bash
# JMS throughput and latency of mikyu against ActiveMQ Artemis, side by side: builds the bench, then runs every case
# on each provider in turn (mikyu, Artemis, mikyu, Artemis, ... for REPS rounds), each run in a fresh JVM with a
# fresh directory after a `sync`, and prints the per-run numbers, then per case the medians and the ratio
# mikyu / Artemis. See bench/jms/README.md.
#
# Environment (or the flags in brackets):
#   REPS (3) [--reps N], DURATION measured seconds (15) [--duration S], WARMUP seconds (5) [--warmup S],
#   CASES (all, space-separated) [--cases "A B"], TRANSPORT vm|tcp (vm) [--transport T],
#   PROVIDERS ("mikyu artemis"; the ratio is the first over the second), SIZE bytes (1024),
#   JAVA_OPTS ("-Xms2g -Xmx2g", every JVM: bench and broker), DATA_DIR (bench/jms/target/runs; on the disk under
#   test, not a tmpfs), PORTS first port of the range (29600; over TCP each run takes the next of 100 ports),
#   BUILD (1; 0 or --no-build reuses the built jar).
# TRANSPORT=vm: mikyu's vm:// engine and Artemis embedded (in-VM acceptor), both in the bench's JVM.
# TRANSPORT=tcp: a broker process per run on 127.0.0.1 (`mikyu daemon`, or Artemis with a Netty acceptor), the bench
#   in a second JVM.
# Each run line ends with the 1-minute load average before and after it: on a busy machine compare pairs.
# A run that loses, duplicates or fails is reported and counted; the script then goes on and exits 2 at the end.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BENCH=jms-ratio
# shellcheck source=lib.sh
. "$here/lib.sh"
ALL_CASES="q_persist_sync_4p4c q_persist_async_4p4c q_persist_async_1p1c q_nonpersist_4p4c t_nonpersist_1p2s
q_persist_tx64_4p4c q_persist_async_rate3k_1p1c"
REPS="${REPS:-3}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-5}"
CASES="${CASES:-$ALL_CASES}"
TRANSPORT="${TRANSPORT:-vm}"
PROVIDERS="${PROVIDERS:-mikyu artemis}"
SIZE="${SIZE:-1024}"
JAVA_OPTS="${JAVA_OPTS:--Xms2g -Xmx2g}"
DATA_DIR="${DATA_DIR:-$here/target/runs}"
PORTS="${PORTS:-29600}"
BUILD="${BUILD:-1}"
while (( $# > 0 )); do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --cases) CASES="$2"; shift 2 ;;
        --transport) TRANSPORT="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) sed -n '2,19p' "$0" >&2; exit 64 ;;
    esac
done
[[ "$TRANSPORT" == vm || "$TRANSPORT" == tcp ]] || { echo "jms-ratio: TRANSPORT is vm or tcp" >&2; exit 64; }
read -r -a cases <<< "$(echo $CASES)"
read -r -a providers <<< "$PROVIDERS"

bench_jar

logs="$here/target/jms-ratio-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$logs" "$DATA_DIR"
results="$logs/results.tsv"
: > "$results"

trap stop_broker EXIT

echo "JMS bench over $TRANSPORT: ${providers[*]} interleaved, $REPS reps, ${DURATION}s measured after ${WARMUP}s" \
     "warm-up, $SIZE B messages, JVMs $JAVA_OPTS; cases: ${cases[*]}; logs in $logs"
failures=0
run=0
for ((rep = 1; rep <= REPS; rep++)); do
    for c in "${cases[@]}"; do
        for p in "${providers[@]}"; do
            dir="$DATA_DIR/$c-$p-$rep"
            rm -rf "$dir"
            mkdir -p "$dir"
            log="$logs/$c-$p-$rep.log"
            port_args=()
            journal=""
            sync
            load_before="$(cut -d' ' -f1 /proc/loadavg)"
            if [[ "$TRANSPORT" == tcp ]]; then
                port=$((PORTS + run % 100))
                start_broker "$p" "$c" "$dir" "$port" "$logs/$c-$p-$rep.broker.log" "$JAVA_OPTS" || { failures=$((failures + 1)); continue; }
                port_args=(--port "$port")
                journal="$(sed -E -n 's/.*"journal":"([A-Z]+)".*/\1/p' "$logs/$c-$p-$rep.broker.log" | head -1)"
            fi
            run=$((run + 1))
            set +e
            # shellcheck disable=SC2086
            java $JAVA_OPTS "$native" -cp "$cp" io.mikyu.bench.jms.JmsBench --case "$c" \
                --jndi "$here/jndi/$p-$TRANSPORT.properties" --dir "$dir" "${port_args[@]}" \
                --duration "$DURATION" --warmup "$WARMUP" --size "$SIZE" > "$log" 2>&1
            status=$?
            set -e
            stop_broker
            load_after="$(cut -d' ' -f1 /proc/loadavg)"
            rm -rf "$dir"
            result="$(sed -n 's/^JMSBENCH_RESULT //p' "$log" | tail -1)"
            if [[ $status != 0 || -z "$result" ]]; then
                failures=$((failures + 1))
                echo "  run $rep  $c  $p  FAILED (exit $status), its output: $log" >&2
                grep -E '^  (sent|provider)|Exception|jms-bench:' "$log" | head -8 | sed 's/^/      /' >&2 || true
                continue
            fi
            [[ -z "$journal" ]] && journal="$(field journal "$result")"
            behind=""
            [[ "$(field settled "$result")" == false ]] && behind=", BEHIND SCHEDULE (latency of a backlog)"
            msgs="$(field msgsPerS "$result")"
            p50="$(field p50us "$result")"
            p99="$(field p99us "$result")"
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$c" "$p" "$msgs" "$p50" "$p99" >> "$results"
            printf '  run %d  %-28s %-8s %10.0f msgs/s   p50 %9.0f us   p99 %9.0f us   %s received, verified%s%s   (load %s -> %s)\n' \
                "$rep" "$c" "$p" "$msgs" "$p50" "$p99" "$(field received "$result")" \
                "${journal:+, journal $journal}" "$behind" "$load_before" "$load_after"
        done
    done
done

a="${providers[0]}"
b="${providers[1]:-}"
echo
echo "medians over $REPS runs of ${DURATION}s ($TRANSPORT):"
printf '| %-28s | %14s | %14s | %6s | %-21s | %-21s | %s |\n' case "$a msgs/s" "${b:-} msgs/s" ratio \
    "p50 us $a / ${b:-}" "p99 us $a / ${b:-}" "ratio per pair"
for c in "${cases[@]}"; do
    declare -A m=() l50=() l99=() per=()
    for p in "${providers[@]}"; do
        per[$p]="$(awk -F'\t' -v c="$c" -v p="$p" '$2 == c && $3 == p { printf "%s ", $4 }' "$results")"
        # shellcheck disable=SC2086
        m[$p]="$(median ${per[$p]})"
        # shellcheck disable=SC2086
        l50[$p]="$(median $(awk -F'\t' -v c="$c" -v p="$p" '$2 == c && $3 == p { print $5 }' "$results"))"
        # shellcheck disable=SC2086
        l99[$p]="$(median $(awk -F'\t' -v c="$c" -v p="$p" '$2 == c && $3 == p { print $6 }' "$results"))"
    done
    [[ -n "$b" ]] || continue
    ratio="$(ratio "${m[$a]}" "${m[$b]}")"
    # per pair: the runs of one round, when both sides of it succeeded
    pairs="$(awk -F'\t' -v c="$c" -v a="$a" -v b="$b" '$2 == c && $3 == a { x[$1] = $4 } $2 == c && $3 == b { y[$1] = $4 }
        END { for (r = 1; r <= 1000; r++) if ((r in x) && (r in y) && y[r] > 0) printf "%.2f ", x[r] / y[r] }' "$results")"
    printf '| %-28s | %14.0f | %14.0f | %6s | %9.0f / %-9.0f | %9.0f / %-9.0f | %s |\n' "$c" "${m[$a]}" "${m[$b]}" \
        "$ratio" "${l50[$a]}" "${l50[$b]}" "${l99[$a]}" "${l99[$b]}" "${pairs% }"
    echo "JMS_RATIO {\"case\":\"$c\",\"transport\":\"$TRANSPORT\",\"a\":\"$a\",\"b\":\"$b\",\"reps\":$REPS,\"durationS\":$DURATION,\"warmupS\":$WARMUP,\"medianA\":${m[$a]/nan/null},\"medianB\":${m[$b]/nan/null},\"ratio\":\"$ratio\",\"p50usA\":${l50[$a]/nan/null},\"p50usB\":${l50[$b]/nan/null},\"p99usA\":${l99[$a]/nan/null},\"p99usB\":${l99[$b]/nan/null}}" >> "$logs/ratios.jsonl"
    unset m l50 l99 per
done
cat "$logs/ratios.jsonl" 2>/dev/null || true
if (( failures > 0 )); then
    echo "$failures run(s) FAILED: see $logs" >&2
    exit 2
fi
