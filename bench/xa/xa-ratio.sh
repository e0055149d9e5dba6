#!/usr/bin/env bash
# XA throughput of mikyu against embedded ActiveMQ Artemis: builds the bench, then runs the providers interleaved
# (A B A B ...), each run in a fresh JVM with fresh directories, and prints the per-run numbers, the medians and the
# ratio of the first provider's median to the second's. See bench/xa/README.md.
#
# Environment: REPS (3), DURATION seconds measured (20), WARMUP seconds (5), THREADS (4), SIZE bytes (1024),
#   PROVIDERS ("mikyu artemis"; noop and none are the floor runs without JMS), DATA_DIR (the JVM's temp dir),
#   JAVA_OPTS ("-Xms1g -Xmx1g"), BUILD (1; 0 uses the jar already built), EXTRA_ARGS (passed to every run).
# Each run line ends with the 1-minute load average before and after it: on a busy machine the runs mean little.
# Exits non-zero as soon as a run fails its verification or any transaction fails.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
REPS="${REPS:-3}"
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-5}"
THREADS="${THREADS:-4}"
SIZE="${SIZE:-1024}"
PROVIDERS="${PROVIDERS:-mikyu artemis}"
JAVA_OPTS="${JAVA_OPTS:--Xms1g -Xmx1g}"
BUILD="${BUILD:-1}"
EXTRA_ARGS="${EXTRA_ARGS:-}"
read -r -a providers <<< "$PROVIDERS"

if [[ "$BUILD" == 1 ]]; then
    echo "building: mvn -q -Pxa-bench -pl bench/xa -am package -DskipTests"
    (cd "$root" && mvn -q -Pxa-bench -pl bench/xa -am package -DskipTests)
fi
jar="$here/target/mikyu-xa-bench.jar"
[[ -f "$jar" ]] || { echo "xa-ratio: $jar is missing (build with BUILD=1)" >&2; exit 1; }

logs="$here/target/xa-ratio-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$logs"
dir_args=()
if [[ -n "${DATA_DIR:-}" ]]; then
    mkdir -p "$DATA_DIR"
    dir_args=(--dir "$DATA_DIR")
fi

field() { # field NAME JSON -> the value of a number or string field
    sed -E -n "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/p" <<< "$2"
}

median() { # median of the arguments
    printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) { print v[(NR + 1) / 2] } else { printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 } }'
}

declare -A tps p50 p99
artemis_journals=""
echo "XA bench: ${providers[*]} interleaved, $REPS reps, ${DURATION}s measured after ${WARMUP}s warm-up," \
     "$THREADS threads, $SIZE B persistent messages; logs in $logs"
for ((rep = 1; rep <= REPS; rep++)); do
    for p in "${providers[@]}"; do
        sync
        log="$logs/run-$rep-$p.log"
        load_before="$(cut -d' ' -f1 /proc/loadavg)"
        set +e
        # shellcheck disable=SC2086
        java $JAVA_OPTS -Djava.library.path="$here/target/native/lib/linux-x86_64" \
            -cp "$jar:$here/target/lib/*" io.mikyu.bench.xa.XaBench --provider "$p" --threads "$THREADS" \
            --duration "$DURATION" --warmup "$WARMUP" --size "$SIZE" "${dir_args[@]}" $EXTRA_ARGS > "$log" 2>&1
        status=$?
        set -e
        load_after="$(cut -d' ' -f1 /proc/loadavg)"
        result="$(sed -n 's/^XABENCH_RESULT //p' "$log" | tail -1)"
        if [[ $status != 0 || -z "$result" ]]; then
            echo "run $rep $p FAILED (exit $status), its output ($log):" >&2
            tail -40 "$log" >&2
            exit $(( status == 0 ? 1 : status ))
        fi
        tps[$p]+="$(field tps "$result") "
        p50[$p]+="$(field p50us "$result") "
        p99[$p]+="$(field p99us "$result") "
        extra=""
        if [[ "$p" == artemis ]]; then
            journal="$(field journal "$result")"
            extra=" journal $journal"
            artemis_journals+="$journal "
        fi
        printf '  run %d  %-8s %10.1f tx/s   p50 %8.0f us   p99 %8.0f us   %s committed, verified%s   (load %s -> %s)\n' \
            "$rep" "$p" "$(field tps "$result")" "$(field p50us "$result")" "$(field p99us "$result")" \
            "$(field committedTx "$result")" "$extra" "$load_before" "$load_after"
        grep '^per tx' "$log" | sed 's/^/        /'
    done
done

echo
echo "medians over $REPS runs:"
for p in "${providers[@]}"; do
    # shellcheck disable=SC2086
    printf '  %-8s %10.1f tx/s   p50 %8.0f us   p99 %8.0f us   (runs: %s)\n' "$p" "$(median ${tps[$p]})" \
        "$(median ${p50[$p]})" "$(median ${p99[$p]})" "${tps[$p]% }"
done
if (( ${#providers[@]} >= 2 )); then
    a="${providers[0]}"
    b="${providers[1]}"
    # shellcheck disable=SC2086
    ma="$(median ${tps[$a]})"
    # shellcheck disable=SC2086
    mb="$(median ${tps[$b]})"
    ratio="$(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", a / b }')"
    read -r -a ta <<< "${tps[$a]}"
    read -r -a tb <<< "${tps[$b]}"
    pairs=""
    for ((i = 0; i < ${#ta[@]}; i++)); do
        pairs+="$(awk -v a="${ta[$i]}" -v b="${tb[$i]}" 'BEGIN { printf "%.2f", a / b }') "
    done
    echo "ratio $a/$b of the medians: $ratio (per pair: ${pairs% })"
    if [[ " $artemis_journals" == *" NIO "* && " ${EXTRA_ARGS:-} " != *"--artemis-journal NIO"* ]]; then
        echo "NOTE: Artemis ran on its NIO journal, not ASYNCIO (is libaio1 installed? see bench/xa/README.md): its"
        echo "      default journal where libaio works is faster, so this ratio is not against Artemis at its best."
    fi
    echo "XA_RATIO {\"a\":\"$a\",\"b\":\"$b\",\"reps\":$REPS,\"durationS\":$DURATION,\"warmupS\":$WARMUP,\"threads\":$THREADS,\"medianA\":$ma,\"medianB\":$mb,\"ratio\":$ratio}"
fi
