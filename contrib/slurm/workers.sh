#!/usr/bin/env bash
# An arena's workers as a Slurm job array of N tasks, each an `arena worker` on the cores Slurm
# gives it, until the job is cancelled (scancel JOB) or runs out of time:
#   workers.sh DB N DIR [arena worker options: --cores LIST, --lease SEC, --memory MIB ...]
# DB is the arena's PostgreSQL database as the nodes reach it (postgresql://HOST/NAME; the
# password from ~/.pgpass or PGPASSWORD, never the command line); DIR holds each worker's logs
# and cache. Prints the job's id. WORKER_CPUS (default 2) is each task's --cpus-per-task: its
# players at once, a core each. Other sbatch options (partition, time, account) come from the
# usual SBATCH_* environment variables; the environment (with ARENA, the program's path, if
# set) goes with the job.
set -euo pipefail
(($# >= 3)) || { echo "usage: workers.sh DB N DIR [arena worker options...]" >&2; exit 2; }
db=$1 n=$2 dir=$(realpath "$3")
shift 3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$dir"
job=$(sbatch --parsable --array="0-$((n - 1))" --cpus-per-task="${WORKER_CPUS:-2}" \
    --output="$dir/worker-%a.out" \
    "$here/workers.sbatch" "$db" "$dir" "$@")
echo "${job%%;*}"
