#!/usr/bin/env bash
# mikyu on Kafka against plain Kafka clients, side by side in ONE JVM on ONE in-JVM Kafka cluster (3 brokers,
# 1 controller, replication factor 3, min.insync.replicas 2), started once: builds the bench, then for REPS rounds
# runs each workload (a log, a queue) on each side in turn (plain Kafka, mikyu's JMS provider on kafka://, the same
# JMS load on the embedded engine vm://), and prints each run, the medians and the ratios. See bench/kafka/README.md.
#
# Environment:
#   REPS (3), DURATION measured seconds per run (20), WARMUP seconds per run (10), PRIME seconds of one unmeasured
#   run per workload and side before the first round (5; 0: none), PRODUCERS (4), CONSUMERS queue consumers (4),
#   SIZE message bytes (1024), WORKLOADS ("log queue"), SIDES ("kafka mikyu-kafka mikyu-vm"; the ratios are
#   mikyu-kafka over kafka and over mikyu-vm), JAVA_OPTS ("-Xms1g -Xmx2g"), DATA_DIR (bench/kafka/target/runs:
#   the vm:// engines' directories, on the disk under test, not a tmpfs), BUILD (1; 0 reuses the built jar).
# Exits 2 if a run failed or did not verify (every message sent arrived exactly once).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
REPS="${REPS:-3}"
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-10}"
PRIME="${PRIME:-5}"
PRODUCERS="${PRODUCERS:-4}"
CONSUMERS="${CONSUMERS:-4}"
SIZE="${SIZE:-1024}"
WORKLOADS="${WORKLOADS:-log queue}"
SIDES="${SIDES:-kafka mikyu-kafka mikyu-vm}"
JAVA_OPTS="${JAVA_OPTS:--Xms1g -Xmx2g}"
DATA_DIR="${DATA_DIR:-$here/target/runs}"
BUILD="${BUILD:-1}"

if [[ "$BUILD" == 1 ]]; then
    echo "building: mvn -q -Pkafka-bench -pl bench/kafka -am package -DskipTests"
    (cd "$root" && mvn -q -Pkafka-bench -pl bench/kafka -am package -DskipTests)
fi
jar="$here/target/mikyu-kafka-bench.jar"
[[ -f "$jar" ]] || { echo "kafka-ratio: $jar is missing (build with BUILD=1)" >&2; exit 1; }

logs="$here/target/kafka-ratio-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$logs" "$DATA_DIR"
echo "kafka bench: $REPS rounds of [$WORKLOADS] on [$SIDES], ${DURATION}s measured after ${WARMUP}s warm-up," \
     "$PRODUCERS producers, $CONSUMERS queue consumers, $SIZE B, JVM $JAVA_OPTS, $(nproc) cores," \
     "load $(cut -d' ' -f1-3 /proc/loadavg); log in $logs/run.log"
set +e
# shellcheck disable=SC2086
java $JAVA_OPTS -cp "$jar:$here/target/lib/*" io.mikyu.bench.kafka.KafkaBench --reps "$REPS" \
    --duration "$DURATION" --warmup "$WARMUP" --prime "$PRIME" --producers "$PRODUCERS" --consumers "$CONSUMERS" \
    --size "$SIZE" --workloads "$WORKLOADS" --sides "$SIDES" --dir "$DATA_DIR" > "$logs/run.log" 2>&1
status=$?
set -e
sed -n 's/^KAFKABENCH_RESULT //p' "$logs/run.log" > "$logs/results.jsonl"
# the runs, the medians and the ratios (the brokers' own log lines stay in run.log)
grep -E '^(in-JVM cluster|  run |  \(unmeasured\)|medians|\||- |[0-9]+ run)' "$logs/run.log" || true
if [[ $status != 0 ]]; then
    echo "kafka-ratio: exit $status, see $logs/run.log" >&2
    grep -E 'Exception|kafka-bench:' "$logs/run.log" | head -10 >&2 || true
fi
exit $status
