#!/usr/bin/env bash
# Start-up and the list of games with many games waiting for an opponent, on SQLite:
#
#   scripts/bench-waiting-games.sh target/release/checkers 13000 [100000]
#
# Makes a database with the binary (so with its schema), fills it with COUNT open games
# waiting (as a flood of `create`s leaves them: one seat taken, created in the last minute)
# and FINISHED games (default none: each with its two seats, finished a day ago),
# then starts the server three times, printing how long each took to listen and its RSS a
# second later, and times GET /api/games on the last one (scripts/http-latency.py: one
# client, then 20 at once). Needs sqlite3, curl and python3.
set -euo pipefail
binary=$(realpath "$1")
count=${2:-13000}
finished=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
db=$work/games.db
pid=

start() {
    local began ended
    rm -f "$work/out"
    began=$(date +%s.%N)
    "$binary" serve --addr 127.0.0.1:0 --db "$db" --engine-threads 1 >"$work/out" 2>"$work/err" &
    pid=$!
    until grep -q listening "$work/out" 2>/dev/null; do
        kill -0 "$pid" || { cat "$work/err"; exit 1; }
        sleep 0.01
    done
    ended=$(date +%s.%N)
    addr=$(sed 's/listening on //' "$work/out")
    sleep 1
    echo "$1listening after $(echo "$ended - $began" | bc) s; RSS $(awk '/VmRSS/ {print $2}' /proc/$pid/status) KiB"
}

stop() {
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

start "" >/dev/null
stop
# Databases made before the list kept its own columns (schema 2) have no `live`: their first
# start with a newer server fills it in.
columns="id, variant, start_fen, listed, status, result, winner, reason, white_ms, black_ms, created_ms, updated_ms"
start_fen="'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'"
waiting="'english', $start_fen, 1, 'waiting', NULL, NULL, NULL, 0, 0, now - i, now - i"
over="'english', $start_fen, 0, 'finished', '1-0', 'black', 'resignation', 0, 0, now - 86400000 - i, now - 86400000 - i"
if [ "$(sqlite3 "$db" "SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'live'")" = 1 ]; then
    columns="$columns, live, white_name, black_name"
    waiting="$waiting, 1, 'flood', NULL"
    over="$over, 0, 'w', 'b'"
fi
sqlite3 "$db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $count),
  t(now) AS (SELECT CAST(strftime('%s', 'now') AS INTEGER) * 1000)
INSERT INTO games ($columns) SELECT printf('w%09d', i), $waiting FROM n, t;
INSERT INTO seats (game_id, color, kind, name, token_hash)
  SELECT id, 'white', 'human', 'flood', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' FROM games;
INSERT INTO seats (game_id, color, kind) SELECT id, 'black', 'human' FROM games;
WITH RECURSIVE n(i) AS (SELECT 1 WHERE $finished > 0 UNION ALL SELECT i + 1 FROM n WHERE i < $finished),
  t(now) AS (SELECT CAST(strftime('%s', 'now') AS INTEGER) * 1000)
INSERT INTO games ($columns) SELECT printf('f%09d', i), $over FROM n, t;
INSERT INTO seats (game_id, color, kind, name) SELECT id, 'white', 'human', 'w' FROM games WHERE status = 'finished';
INSERT INTO seats (game_id, color, kind, name) SELECT id, 'black', 'human', 'b' FROM games WHERE status = 'finished';
SQL
echo "$count games waiting, $finished finished"
for run in 1 2 3; do
    start "start $run: "
    [ "$run" = 3 ] || stop
done
python3 "$here/http-latency.py" "$addr/api/games" --requests 200
python3 "$here/http-latency.py" "$addr/api/games" --clients 20 --requests 50
stop
