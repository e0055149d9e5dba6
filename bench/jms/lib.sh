#!/usr/bin/env bash
# Functions jms-ratio.sh and backlog-ratio.sh share; sourced, not run. The sourcing script sets BENCH (its name, for
# messages), here (bench/jms), root (the repository) and BUILD (1: build first), then calls bench_jar.

# bench_jar: builds the bench if BUILD is 1, then sets cp (the bench's class path) and native (Artemis' libaio).
bench_jar() {
    if [[ "$BUILD" == 1 ]]; then
        echo "building: mvn -q -Pjms-bench -pl bench/jms -am package -DskipTests"
        (cd "$root" && mvn -q -Pjms-bench -pl bench/jms -am package -DskipTests)
    fi
    local jar="$here/target/mikyu-jms-bench.jar"
    [[ -f "$jar" ]] || { echo "$BENCH: $jar is missing (build with BUILD=1)" >&2; exit 1; }
    cp="$jar:$here/target/lib/*"
    native="-Djava.library.path=$here/target/native/lib/linux-x86_64"
}

broker_pid=""
stop_broker() {
    [[ -n "$broker_pid" ]] || return 0
    kill "$broker_pid" 2>/dev/null || true
    for _ in $(seq 300); do
        kill -0 "$broker_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$broker_pid" 2>/dev/null || true
    wait "$broker_pid" 2>/dev/null || true
    broker_pid=""
}

# start_broker PROVIDER CASE DIR PORT LOG JVM_OPTIONS: a broker of its own for one run over TCP; returns once it
# listens. JVM_OPTIONS is split into words (e.g. "-Xms2g -Xmx2g").
start_broker() {
    local provider="$1" case="$2" dir="$3" port="$4" log="$5" jvm="$6" ready
    # shellcheck disable=SC2086
    if [[ "$provider" == mikyu ]]; then
        java $jvm -cp "$cp" io.mikyu.cli.MikyuCli daemon --data-dir "$dir/daemon" \
            --target "tcp://127.0.0.1:$port" > "$log" 2>&1 &
        ready="mikyu daemon listening on"
    else
        java $jvm "$native" -cp "$cp" io.mikyu.bench.jms.ArtemisServer --dir "$dir/artemis" --port "$port" \
            --case "$case" > "$log" 2>&1 &
        ready="artemis server ready"
    fi
    broker_pid=$!
    for _ in $(seq 600); do
        grep -q "$ready" "$log" 2>/dev/null && return 0
        kill -0 "$broker_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "$BENCH: the $provider broker did not start ($log):" >&2
    tail -20 "$log" >&2
    stop_broker
    return 1
}

field() { # field NAME JSON -> the value of a number, boolean or string field
    sed -E -n "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/p" <<< "$2"
}

median() { # median of the arguments
    printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) { print v[(NR + 1) / 2] } else { printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 } }'
}

ratio() { # ratio X Y -> X / Y to two places, or - if either is missing or Y is 0
    awk -v x="$1" -v y="$2" 'BEGIN { if (x == "nan" || y == "nan" || y == 0) print "-"; else printf "%.2f", x / y }'
}
