#!/usr/bin/env bash
# Plays one shard of a tournament into its own database, or finishes it if an earlier attempt
# was stopped (a requeued Slurm task, a rerun GNU parallel job): what both recipes run.
#   run-shard.sh DB I/N [tournament run options...]
# The tournament program is $TOURNAMENT, else bananagrams-tournament from PATH.
set -euo pipefail
(($# >= 2)) || { echo "usage: run-shard.sh DB I/N [tournament run options...]" >&2; exit 2; }
db=$1 shard=$2
shift 2
tournament=${TOURNAMENT:-bananagrams-tournament}
if [[ -e $db ]]; then
    exec "$tournament" resume --db "$db" --rating-interval 1000000
fi
exec "$tournament" run --db "$db" --shard "$shard" --rating-interval 1000000 "$@"
