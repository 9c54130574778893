#!/usr/bin/env bash
# A tournament as N shards run by GNU parallel, then merged, here or across machines:
#   run.sh DIR N PARALLEL_OPTIONS -- [tournament run options...]
# e.g. locally, two shards at a time:
#   run.sh out 4 -j2 -- --bot "a=..." --bot "b=..." --deals 100
# or on machines reachable over ssh (each with the programs and the bots installed at the same
# paths), the databases brought back with --return:
#   run.sh out 8 -j1 --sshlogin host1,host2 -- --bot ...
# DIR/merged.db then holds every game; the standings are printed.
set -euo pipefail
(($# >= 2)) || { echo "usage: run.sh DIR N PARALLEL_OPTIONS -- [tournament run options...]" >&2; exit 2; }
dir=$(realpath "$1") n=$2
shift 2
options=()
while (($#)) && [[ $1 != -- ]]; do
    options+=("$1")
    shift
done
(($#)) && shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tournament=${TOURNAMENT:-bananagrams-tournament}
mkdir -p "$dir"
cd "$dir"
# Each job's database is named relative to its working folder, so that --return brings it back
# here from a remote machine; run-shard.sh resumes a shard rerun. --quote: the options' words
# (a bot's command has spaces) reach the job as they are.
remote=()
for option in "${options[@]}"; do
    case $option in
        -S | --sshlogin* | --slf | --sshloginfile*) remote=(--return "shard-{}.db" --cleanup) ;;
    esac
done
TOURNAMENT=$tournament parallel --will-cite --quote --halt now,fail=1 "${options[@]}" \
    --env TOURNAMENT "${remote[@]}" \
    "$here/run-shard.sh" "shard-{}.db" "{}/$n" "$@" ::: $(seq 0 $((n - 1)))
"$tournament" merge --db merged.db shard-*.db
exec "$tournament" standings --db merged.db
