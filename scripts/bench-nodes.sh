#!/usr/bin/env bash
# Many concurrent human-against-human games on one node (SQLite) or on several nodes of one
# PostgreSQL database, with the nodes' memory sampled:
#
#   cargo build --release -p checkers && cargo build --release -p checkers-server --example loadtest
#   scripts/bench-nodes.sh target/release 1 9800 20 10000                      # one node, SQLite
#   scripts/bench-nodes.sh target/release 3 2000 40 1000 postgres://U:P@HOST/DB --watchers
#
# Arguments: the release directory (with `checkers` and `examples/loadtest`), the number of
# nodes, GAMES, PLIES each, THINK_MS, then the database (PostgreSQL; left out: a SQLite file
# of its own, one node) and the load generator's other options. The nodes run as processes
# of their own on 127.0.0.1:8081 and on; the games are shared between load generators of at
# most 4,900 games each (a process holds at most its open-file limit of sockets, and a game
# is two or three sockets). Each generator prints its figures and checks its games in the
# database; the nodes' RSS, live games and WebSockets are written every 2 s to
# nodes-memory.log and the peak printed, with the load average at the start and the end, and
# the CPU time the nodes used (and, on a PostgreSQL of this machine, its backends serving the
# database, those still connected at the end: the nodes' pools keep theirs).
# The PostgreSQL database is used as it is: give a fresh one. Needs curl.
set -euo pipefail
release=$(realpath "$1")
nodes=$2 games=$3 plies=$4 think=$5
shift 5
db=${1:-}
[ $# -gt 0 ] && shift
work=$(mktemp -d)
pids=()
# The nodes drain on SIGTERM (a second or two): waited for, so that a run started next finds
# their ports free.
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
if [ -z "$db" ]; then
    [ "$nodes" = 1 ] || { echo "several nodes need a postgres:// database" >&2; exit 2; }
    db=$work/site.db
fi
addrs=()
for i in $(seq 1 "$nodes"); do
    port=$((8080 + i))
    "$release/checkers" serve --addr "127.0.0.1:$port" --db "$db" >"$work/node$i.log" 2>&1 &
    pids+=($!)
    addrs+=("127.0.0.1:$port")
    until curl -sf "127.0.0.1:$port/readyz" >/dev/null; do
        kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/node$i.log" >&2; exit 1; }
        sleep 0.2
    done
done
echo "start: load average $(cut -d' ' -f1-3 /proc/loadavg)"
(
    while true; do
        for i in $(seq 1 "$nodes"); do
            rss=$(awk '/VmRSS/ {print $2}' "/proc/${pids[$((i - 1))]}/status")
            metrics=$(curl -s -m 2 "127.0.0.1:$((8080 + i))/metrics" \
                | awk '/^checkers_(live_games|websocket_connections) / {printf "%s %s ", $1, $2}')
            echo "node $i rss_kb $rss $metrics"
        done
        sleep 2
    done
) >"$work/nodes-memory.log" 2>&1 &
sampler=$!
if [ "$nodes" = 1 ]; then target=(--addr "${addrs[0]}"); else target=(--nodes "$(IFS=,; echo "${addrs[*]}")"); fi
generators=()
first=0
while [ "$first" -lt "$games" ]; do
    n=$((games - first < 4900 ? games - first : 4900))
    "$release/examples/loadtest" "${target[@]}" --db "$db" --games "$n" --first "$first" --plies "$plies" \
        --think-ms "$think" "$@" >"$work/generator$first.log" 2>&1 &
    generators+=($!)
    first=$((first + n))
done
status=0
for g in "${generators[@]}"; do wait "$g" || status=1; done
echo "end: load average $(cut -d' ' -f1-3 /proc/loadavg)"
# CPU seconds used by processes (utime + stime in /proc/PID/stat, fields 14 and 15).
cpu_seconds() {
    local ticks=0 p
    for p in "$@"; do ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / hz}'
}
cpu="CPU: nodes $(cpu_seconds "${pids[@]}") s"
if [[ $db == postgres* ]]; then
    name=${db##*/}
    name=${name%%\?*}
    mapfile -t backends < <(pgrep -f "^postgres: .* $name ")
    cpu="$cpu, PostgreSQL backends of $name $(cpu_seconds "${backends[@]}") s"
fi
echo "$cpu"
kill "$sampler"
for log in "$work"/generator*.log; do echo "== $(basename "$log")"; grep -v '^loadtest:' "$log" || true; done
for i in $(seq 1 "$nodes"); do
    echo "node $i peak: $(grep "^node $i " "$work/nodes-memory.log" | sort -k4 -n | tail -1)"
done
echo "logs in $work"
exit $status
