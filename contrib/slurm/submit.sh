#!/usr/bin/env bash
# A tournament as a Slurm job array of N shards and a dependent merge job, on a folder every node
# can reach (shared storage):
#   submit.sh DIR N [tournament run options: --bot NAME=CMD ... --deals ... --seed ...]
# prints the two job ids; the standings end up in DIR/merge.out. sbatch options (partition,
# time, account) come from the usual SBATCH_* environment variables; the environment (with
# TOURNAMENT, the program's path, if set) goes with the jobs. This folder must be on the shared
# storage too.
set -euo pipefail
(($# >= 2)) || { echo "usage: submit.sh DIR N [tournament run options...]" >&2; exit 2; }
dir=$(realpath "$1") n=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
contrib=$(dirname "$here")
mkdir -p "$dir"
shards=$(sbatch --parsable --array="0-$((n - 1))" --output="$dir/shard-%a.out" \
    "$here/shard.sbatch" "$contrib" "$dir" "$@")
shards=${shards%%;*}
merge=$(sbatch --parsable --dependency="afterok:$shards" --output="$dir/merge.out" \
    "$here/merge.sbatch" "$dir")
echo "$shards ${merge%%;*}"
