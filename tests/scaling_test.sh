#!/usr/bin/env bash
# Tournaments beyond one machine, for real: shards run by GNU parallel and by a one-node Slurm
# cluster started here, merged, and checked against the same tournament played unsharded; and
# the faults a merge must catch.
#   scaling_test.sh BUILD_DIR SOURCE_DIR parallel|faults|slurm
# The bots are chosen so that every game's outcome is fixed by the order of its events, never by
# a clock, so the standings can be compared: one that leaves before it is ready is out before
# any deal, and the other player wins as the last one standing; a staircase bot peels the bunch
# dry while a sleeping one waits. (A bot that peels its first hand once could win: started late
# on a loaded machine, it read its hand and every tile of the staircase's peels at once, and its
# one peel, of every tile it held, came as the bunch ran dry.) The game clock is only a safety
# net: with a clock that ends games, a loaded machine (the whole suite, two at a time) once let
# it end a staircase's first.
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2") mode=$3
tournament=$build/tournament
export TOURNAMENT=$tournament
work=$(mktemp -d /tmp/bg-scaling-XXXXXX)
chmod 755 "$work"  # the sandboxed bots run as nobody
cleanup() {
    [[ -f $work/cluster/slurm.conf ]] && "$source/tests/support/slurm_cluster.sh" stop "$work/cluster"
    rm -rf "$work"
}
trap cleanup EXIT
bots=(--dict "$source/tests/data/two_letters.txt" --game-timeout 60 --deals 2 --seed 11
      --bot "a=exec python3 $source/tests/bots/test_bot.py staircase"
      --bot "b=exec python3 $source/tests/bots/test_bot.py leave"
      --bot "c=exec python3 $source/tests/bots/test_bot.py sleep")

fail() { echo "scaling_test: $*" >&2; exit 1; }

# The standings' fixed parts and the schedule of two databases must agree, and every game of the
# first be done once.
same_tournament() {
    python3 - "$1" "$2" "$tournament" <<'PY'
import json, sqlite3, subprocess, sys
merged, reference, tournament = sys.argv[1:]
def schedule(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    games = db.execute("SELECT id, deal, seed, table_no, rotation, state FROM games ORDER BY id").fetchall()
    seats = db.execute("SELECT game_id, seat, bot_id FROM seats ORDER BY game_id, seat").fetchall()
    return games, seats
games, seats = schedule(merged)
ref_games, ref_seats = schedule(reference)
assert [g[0] for g in games] == list(range(1, len(ref_games) + 1)), [g[0] for g in games]
assert all(g[5] == "done" for g in games), [g for g in games if g[5] != "done"]
assert [g[:5] for g in games] == [g[:5] for g in ref_games]
assert seats == ref_seats
def standings(path):
    out = json.loads(subprocess.run([tournament, "standings", "--db", path, "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    fixed = ("name", "games", "wins", "mean_standing", "disqualified", "timeouts")
    bots = [{k: b[k] for k in fixed} | {"elo": round(b["elo"], 6)} for b in out["bots"]]
    return out["done"], bots, out["head_to_head"]
a, b = standings(merged), standings(reference)
assert a == b, (a, b)
print("same tournament: %d games, standings equal" % a[0])
PY
}

case $mode in
parallel)
    "$tournament" run --db "$work/reference.db" "${bots[@]}" --json >/dev/null 2>&1
    "$source/contrib/parallel/run.sh" "$work/out" 4 -j2 -- "${bots[@]}" >"$work/out.txt"
    grep -q "12 of 12 games done" "$work/out.txt" || fail "the merged standings: $(cat "$work/out.txt")"
    same_tournament "$work/out/merged.db" "$work/reference.db"
    # Idempotent and order-free: merging again adds nothing; the other order gives the same games.
    again=$("$tournament" merge --db "$work/out/merged.db" "$work"/out/shard-*.db 2>&1)
    grep -q "0 games added, 12 already there" <<<"$again" || fail "merged again: $again"
    "$tournament" merge --db "$work/reverse.db" $(ls -r "$work"/out/shard-*.db) 2>/dev/null
    cmp <("$tournament" games --db "$work/out/merged.db" --json) \
        <("$tournament" games --db "$work/reverse.db" --json) || fail "the order of shards matters"
    ;;
faults)
    # Staircases that peel only once the file go is there: until the test makes it, no game
    # can end, so the shard killed below cannot have finished first.
    slow=(--dict "$source/tests/data/two_letters.txt" --game-timeout 60 --deals 4 --concurrency 1
          --bot "x=exec python3 $source/tests/bots/test_bot.py staircase --wait-for $work/go"
          --bot "y=exec python3 $source/tests/bots/test_bot.py staircase --wait-for $work/go")
    # A shard killed in the middle of a game: the merge names its missing games; resumed, it
    # completes.
    "$source/contrib/run-shard.sh" "$work/s1.db" 1/2 "${slow[@]}" >/dev/null 2>&1 &
    victim=$!
    for _ in $(seq 600); do
        running=$("$tournament" games --db "$work/s1.db" --json 2>/dev/null |
            python3 -c 'import json,sys; print(sum(g["state"] == "running" for g in json.load(sys.stdin)))' 2>/dev/null || echo 0)
        ((running >= 1)) && break
        sleep 0.2
    done
    ((running >= 1)) || fail "the shard to kill did not start a game"
    kill -KILL "$victim"
    wait "$victim" 2>/dev/null || true
    touch "$work/go"
    "$source/contrib/run-shard.sh" "$work/s0.db" 0/2 "${slow[@]}" >/dev/null 2>&1
    status=0
    message=$("$tournament" merge --db "$work/merged.db" "$work/s0.db" "$work/s1.db" 2>&1) || status=$?
    ((status == 3)) || fail "a merge missing games exited $status: $message"
    grep -q "games\? missing: " <<<"$message" || fail "missing games not named: $message"
    "$source/contrib/run-shard.sh" "$work/s1.db" 1/2 >/dev/null 2>&1
    message=$("$tournament" merge --db "$work/merged.db" "$work/s0.db" "$work/s1.db" 2>&1)
    grep -q "8 of 8 games done" <<<"$message" || fail "after resume: $message"
    # A shard of another tournament is refused, naming the difference.
    "$tournament" run --db "$work/other.db" --shard 0/2 "${slow[@]}" --seed 99 >/dev/null 2>&1
    status=0
    message=$("$tournament" merge --db "$work/m2.db" "$work/s1.db" "$work/other.db" 2>&1) || status=$?
    ((status == 1)) || fail "another tournament's shard merged (exit $status): $message"
    grep -q "not shards of one tournament: seed is 1 in one and 99 in the other" <<<"$message" ||
        fail "the difference is not named: $message"
    # One shard played twice gives other results: the merge refuses to choose.
    "$tournament" run --db "$work/s0-again.db" --shard 0/2 "${slow[@]}" >/dev/null 2>&1
    status=0
    message=$("$tournament" merge --db "$work/m3.db" "$work/s0.db" "$work/s0-again.db" 2>&1) || status=$?
    ((status == 1)) || fail "a game done twice differently merged (exit $status): $message"
    grep -q "done twice with different results" <<<"$message" || fail "no conflict named: $message"
    ;;
slurm)
    [[ $(id -u) -eq 0 ]] || fail "the Slurm test starts slurmctld and slurmd as root"
    "$tournament" run --db "$work/reference.db" "${bots[@]}" --json >/dev/null 2>&1
    "$source/tests/support/slurm_cluster.sh" start "$work/cluster"
    export SLURM_CONF=$work/cluster/slurm.conf
    read -r shards merge < <("$source/contrib/slurm/submit.sh" "$work/out" 4 "${bots[@]}")
    # Done when the merge job (which waits for the shards) has ended, as slurmctld says: an
    # empty squeue is no proof, since squeue prints nothing when it cannot reach slurmctld.
    merge_state() {
        scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2
    }
    for _ in $(seq 600); do
        case $(merge_state) in
            COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;;
        esac
        sleep 0.2
    done
    [[ $(merge_state) == COMPLETED ]] ||
        fail "the merge job did not complete: $(merge_state); $(squeue; scontrol show job "$merge")"
    grep -q "12 of 12 games done" "$work/out/merge.out" ||
        fail "the merge job: $(cat "$work/out/merge.out" "$work"/out/shard-*.out)"
    same_tournament "$work/out/merged.db" "$work/reference.db"
    "$source/tests/support/slurm_cluster.sh" stop "$work/cluster"
    for name in munged slurmctld slurmd; do
        ! kill -0 "$(cat "$work/cluster/$name.pid")" 2>/dev/null || fail "$name is still running"
    done
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "scaling_test $mode: passed"
