#!/usr/bin/env bash
# What a message costs over TCP, in counters rather than in time: runs JMS bench cases against a `mikyu daemon`
# (mikyu only) and, over a slice of the measured window, counts with `perf stat` the CPU time, system calls, context
# switches, writes and futex calls of the daemon and of the bench's JVM, divided by the messages acknowledged during
# the slice (`mikyu_queue_acked_total` on the daemon's /metrics, read at both ends). Prints one line per process
# and run. On a loaded machine the rates move with the load; writes and system calls per message move far less.
# See bench/jms/README.md.
#
# Environment: CASES ("q_groups1000_persist_async_4p4c q_persist_async_4p4c"), REPS (3), DURATION (10), WARMUP (3),
#   SLICE seconds counted (7; from 1 s after the warm-up of the traffic), PORTS (29800: the broker's port),
#   METRICS_PORT (PORTS + 50: the broker's /metrics), JAVA_OPTS ("-Xms2g -Xmx2g"), DATA_DIR (bench/jms/target/runs), BUILD (1).
# Needs perf (linux-perf) allowed to read the system-call tracepoints of another process (root or CAP_PERFMON), and curl.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BENCH=tcp-counters
# shellcheck source=lib.sh
. "$here/lib.sh"
CASES="${CASES:-q_groups1000_persist_async_4p4c q_persist_async_4p4c}"
REPS="${REPS:-3}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-3}"
SLICE="${SLICE:-7}"
PORTS="${PORTS:-29800}"
JAVA_OPTS="${JAVA_OPTS:--Xms2g -Xmx2g}"
DATA_DIR="${DATA_DIR:-$here/target/runs}"
BUILD="${BUILD:-1}"
command -v perf > /dev/null || { echo "$BENCH: needs perf" >&2; exit 1; }
bench_jar

logs="$here/target/tcp-counters-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$logs" "$DATA_DIR"
events=task-clock,raw_syscalls:sys_enter,context-switches,syscalls:sys_enter_write,syscalls:sys_enter_writev,syscalls:sys_enter_futex
metrics="${METRICS_PORT:-$((PORTS + 50))}"
queue_acked() { # messages acknowledged on the daemon so far
    curl -s "http://127.0.0.1:$metrics/metrics" | awk '/^mikyu_queue_acked_total/ { s += $NF } END { printf "%d", s }'
}
per_message() { # per_message WHO PERF_FILE MESSAGES
    awk -F, -v m="$3" -v who="$1" '
        $3 == "task-clock" { printf "  %-6s CPU %7.1f us/msg", who, $1 * 1000 / m }
        $3 == "raw_syscalls:sys_enter" { printf "   syscalls %5.2f/msg", $1 / m }
        $3 == "context-switches" { printf "   cs %5.2f/msg", $1 / m }
        $3 ~ /syscalls:sys_enter_/ { n = $3; sub(/.*sys_enter_/, "", n); printf "   %s %5.2f/msg", n, $1 / m }
        END { print "" }' "$2"
}

echo "$BENCH: mikyu over TCP, ${SLICE}s slices of ${DURATION}s windows, cases: $CASES; logs in $logs"
trap stop_broker EXIT
for ((rep = 1; rep <= REPS; rep++)); do
    for c in $CASES; do
        dir="$DATA_DIR/counters-$c-$rep"
        rm -rf "$dir" && mkdir -p "$dir"
        log="$logs/$c-$rep"
        # shellcheck disable=SC2086
        java $JAVA_OPTS -cp "$cp" io.mikyu.cli.MikyuCli daemon --data-dir "$dir/daemon" \
            --target "tcp://127.0.0.1:$PORTS" --metrics-port "$metrics" > "$log.broker.log" 2>&1 &
        broker_pid=$!
        for _ in $(seq 600); do grep -q "mikyu daemon listening on" "$log.broker.log" && break; sleep 0.1; done
        sync
        load_before="$(cut -d' ' -f1 /proc/loadavg)"
        # shellcheck disable=SC2086
        java $JAVA_OPTS -cp "$cp" io.mikyu.bench.jms.JmsBench --case "$c" --jndi "$here/jndi/mikyu-tcp.properties" \
            --dir "$dir/bench" --port "$PORTS" --duration "$DURATION" --warmup "$WARMUP" > "$log.log" 2>&1 &
        bench_pid=$!
        # The slice starts a second after the warm-up of the traffic, not of the JVM (slow to start when loaded).
        for _ in $(seq 600); do (( $(queue_acked || echo 0) > 0 )) && break; sleep 0.1; done
        sleep $((WARMUP + 1))
        in0="$(queue_acked)"
        perf stat -x, -e "$events" -p "$broker_pid" -o "$log.daemon.perf" -- sleep "$SLICE" &
        perf_daemon=$!
        perf stat -x, -e "$events" -p "$bench_pid" -o "$log.bench.perf" -- sleep "$SLICE" &
        perf_bench=$!
        wait "$perf_daemon" "$perf_bench"
        in1="$(queue_acked)"
        status=0
        wait "$bench_pid" || status=$?
        stop_broker
        load_after="$(cut -d' ' -f1 /proc/loadavg)"
        rm -rf "$dir"
        result="$(sed -n 's/^JMSBENCH_RESULT //p' "$log.log" | tail -1)"
        if [[ $status != 0 || -z "$result" ]]; then
            echo "  run $rep  $c  FAILED (exit $status), its output: $log.log" >&2
            continue
        fi
        messages=$((in1 - in0))
        if (( messages <= 0 )); then
            echo "  run $rep  $c  no message in the slice (the bench did not keep up: a longer DURATION?)" >&2
            continue
        fi
        printf '  run %d  %-32s %8.0f msgs/s in the window, %d messages in the slice   (load %s -> %s)\n' \
            "$rep" "$c" "$(field msgsPerS "$result")" "$messages" "$load_before" "$load_after"
        per_message daemon "$log.daemon.perf" "$messages"
        per_message bench "$log.bench.perf" "$messages"
    done
done
