#!/usr/bin/env bash
# The cost of sharding: one tournament played as 1 shard (2 games at once) and as 4 shards run
# by GNU parallel 2 at a time (1 game at once each), on this machine, with bots whose games have
# fixed outcomes (so that the two can be compared); the merged standings must equal the unsharded ones.
#   scaling_bench.sh BUILD_DIR [DEALS]   (default 40 deals: 240 games)
set -euo pipefail
build=$(realpath "$1") deals=${2:-40}
source=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TOURNAMENT=$build/tournament
work=$(mktemp -d /tmp/bg-scaling-bench-XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
# A staircase bot beats two silent ones at once; the silent two run out the clock level.
bots=(--dict "$source/tests/data/two_letters.txt" --game-timeout 0.5 --deals "$deals"
      --bot "a=exec $build/bench/peel_bot play"
      --bot "b=exec python3 $source/tests/bots/test_bot.py sleep"
      --bot "c=exec python3 $source/tests/bots/test_bot.py sleep")
now() { date +%s.%N; }
start=$(now)
"$TOURNAMENT" run --db "$work/one.db" --concurrency 2 "${bots[@]}" >/dev/null 2>&1
one=$(python3 -c "print($(now) - $start)")
start=$(now)
"$source/contrib/parallel/run.sh" "$work/four" 4 -j2 -- --concurrency 1 "${bots[@]}" >/dev/null 2>&1
four=$(python3 -c "print($(now) - $start)")
fixed() {
    "$TOURNAMENT" standings --db "$1" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
print(s["done"], [(b["name"], b["games"], b["wins"], round(b["elo"], 6)) for b in s["bots"]])'
}
games=$(fixed "$work/one.db" | cut -d' ' -f1)
echo "$games games: 1 shard $(printf %.2f "$one") s, 4 shards 2 at a time $(printf %.2f "$four") s" \
    "(with the merge): $(python3 -c "print('%.2fx' % ($four / $one))")"
if [[ $(fixed "$work/one.db") == "$(fixed "$work/four/merged.db")" ]]; then
    echo "the same games and standings: $(fixed "$work/one.db")"
else
    echo "standings differ: $(fixed "$work/one.db") against $(fixed "$work/four/merged.db")" >&2
    exit 1
fi
