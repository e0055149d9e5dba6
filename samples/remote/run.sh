#!/usr/bin/env bash
# Starts a mikyu daemon on a fresh data directory, a consumer process and a producer process over tcp://, waits for
# the consumer to finish, then stops the daemon. Build first, from the repository root: mvn -q -DskipTests package
#
#   samples/remote/run.sh [port] [count]      (defaults: 7420, 10)
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${1:-7420}"
count="${2:-10}"
url="tcp://127.0.0.1:$port"
jar="$here/target/mikyu-sample-remote.jar"
[ -f "$jar" ] || { echo "run.sh: $jar is not built; in $root run: mvn -q -DskipTests package" >&2; exit 1; }

data="$(mktemp -d)"
"$root/bin/mikyu" daemon --data-dir "$data" --target "$url" &
daemon=$!
trap 'kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; rm -rf "$data"' EXIT

# The daemon is up when the command line can reach it.
for _ in $(seq 1 100); do
  "$root/bin/mikyu" stats --target "$url" >/dev/null 2>&1 && break
  sleep 0.2
done

java -jar "$jar" consume "$url" "$count" &
consumer=$!
java -jar "$jar" produce "$url" "$count"
wait "$consumer"
