#!/usr/bin/env bash
# An arena's workers as a Slurm job array, for real (contrib/slurm/workers.sh): a one-node Slurm
# cluster started here, an arena serving with --workers on a PostgreSQL server of the test's own,
# two workers submitted as an array; both play a hosted bot's matches (its archive fetched from
# the database, played in their sandbox) and the arena rates them; scancel ends
# them (each says goodbye to the store, its match finished or void), and nothing is left running.
# As root, under pg_virtualenv:
#   tests/with_postgresql tests/arena_slurm_test.sh BUILD_DIR SOURCE_DIR
# The cluster has no task plugin: a task of one CPU is not pinned to it, so that two workers,
# each playing matches of two players, run at once on this 2-core machine.
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2")
export ARENA=$build/arena
# Under the build folder, which the players' sandbox shows them (as arena_hosted_test's).
work=$(mktemp -d "$build/bg-arena-slurm-XXXXXX")
chmod 755 "$work"
arena_pid= job=
# The workers of this run: the job's tasks, by their logs' folder.
workers_running() { pgrep -f "arena worker .*--logs $work/out/" >/dev/null; }
cleanup() {
    local status=$?
    [[ -z $arena_pid ]] || kill -9 "$arena_pid" 2>/dev/null || true
    # Its tasks outlive slurmd (no cgroups tracking them): cancelled first, and made sure of.
    [[ -z $job ]] || scancel "$job" 2>/dev/null || true
    for _ in $(seq 150); do workers_running || break; sleep 0.2; done
    pkill -9 -f "arena worker .*--logs $work/out/" || true
    [[ ! -f $work/cluster/slurm.conf ]] ||
        "$source/tests/support/slurm_cluster.sh" stop "$work/cluster" || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
fail() {
    echo "arena_slurm_test: $*" >&2
    tail -n 30 "$work/arena.err" "$work"/out/worker-*.out >&2 2>/dev/null || true
    exit 1
}
[[ $(id -u) -eq 0 ]] || fail "the Slurm test starts slurmctld and slurmd as root"
[[ -n ${PGHOST:-} ]] || fail "run under pg_virtualenv: no PostgreSQL server in the environment"
q() { psql -v ON_ERROR_STOP=1 -qAt -d arena_slurm -c "$1"; }
wait_for() {  # wait_for SECONDS WHAT COMMAND...
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq $((seconds * 5))); do
        "$@" && return 0
        sleep 0.2
    done
    fail "waited $seconds s for $what"
}

psql -qc "DROP DATABASE IF EXISTS arena_slurm" postgres
psql -qc "CREATE DATABASE arena_slurm" postgres
db=dbname=arena_slurm
for name in H1 H2; do
    "$ARENA" bot add "$name" --db "$db" --command "$build/reference_bot" >/dev/null
done
# Two hosted bots (house bots fill their tables; they never meet each other alone).
for name in py1 py2; do
    "$ARENA" bot add "$name" --db "$db" | tail -n 1 >"$work/$name.token"
done
"$ARENA" serve --db "$db" --listen 127.0.0.1:0 --workers --hosted "$work/hosted" --max-wait 1 \
    --max-players 2 --concurrency 4 --house-seats 2 --logs "$work/logs" 2>"$work/arena.err" &
arena_pid=$!
listening() { grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/arena.err"; }
wait_for 60 "the arena to listen" listening
url=$(listening | sed 's/listening on //')
mkdir "$work/bot"
cp "$source/players/example_player.py" "$source/players/example_grids.py" "$work/bot/"
echo '{"command": "python3 example_player.py", "protocol": "v1"}' >"$work/bot/bananagrams.json"
tar czf "$work/bot.tar.gz" -C "$work/bot" .
for name in py1 py2; do
    "$ARENA" bot submit --token-file "$work/$name.token" "$url/bots/$name" "$work/bot.tar.gz" \
        >/dev/null || fail "bot submit $name"
done
"$source/tests/support/slurm_cluster.sh" start "$work/cluster"
export SLURM_CONF=$work/cluster/slurm.conf
job=$(WORKER_CPUS=1 "$source/contrib/slurm/workers.sh" "$db" 2 "$work/out" --lease 5)
[[ $job =~ ^[0-9]+$ ]] || fail "workers.sh printed no job id: $job"

played_by_both() {
    [[ $(q "SELECT count(DISTINCT j.worker) FROM jobs j JOIN matches m ON m.id = j.match_id
            WHERE m.state = 'rated' AND j.worker LIKE 'slurm-$job-%'") == 2 ]]
}
wait_for 240 "both workers of job $job to have a match rated" played_by_both
[[ $(q "SELECT count(*) FROM workers WHERE name LIKE 'slurm-$job-%'") == 2 ]] ||
    fail "the workers said to be there: $(q "SELECT name FROM workers")"

# scancel: each worker finishes or ends its match, says goodbye, and exits.
scancel "$job"
gone() {
    [[ $(q "SELECT count(*) FROM workers") == 0 ]] && ! workers_running
}
for _ in $(seq 450); do gone && break; sleep 0.2; done
gone || fail "the workers did not leave after scancel: said to be there: $(q "SELECT name \
    FROM workers"); running: $(pgrep -af "arena worker .*--logs $work/out/")"
kill -TERM "$arena_pid"
wait "$arena_pid" || fail "the arena after SIGTERM: exit $?"
arena_pid=
[[ -z $(q "SELECT id FROM matches WHERE state = 'running'") ]] || fail "a match left running"
[[ $(q "SELECT count(*) FROM jobs WHERE state IN ('queued', 'claimed')") == 0 ]] ||
    fail "a job left claimed"
"$ARENA" rerate --db "$db" >/dev/null || fail "rerate disagrees"
"$source/tests/support/slurm_cluster.sh" stop "$work/cluster"
for name in munged slurmctld slurmd; do
    ! kill -0 "$(cat "$work/cluster/$name.pid")" 2>/dev/null || fail "$name is still running"
done
echo "arena_slurm_test: passed ($(q "SELECT count(*) FROM jobs WHERE state = 'played'") matches played by the workers)"
