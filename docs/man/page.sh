#!/bin/sh
# Writes a program's man page: its NAME, what its --help prints (every option, the exit
# statuses), then the reference documents given, their titles dropped and their sections made
# the page's; pandoc turns it into roff.
#
#     page.sh PROGRAM NAME SUMMARY VERSION OUT [DOCUMENT.md ...]
set -eu
program=$1 name=$2 summary=$3 version=$4 out=$5
shift 5
{
    printf '# NAME\n\n%s - %s\n\n# OPTIONS\n\nWhat `%s --help` prints:\n\n```\n' \
        "$name" "$summary" "$name"
    "$program" --help
    printf '```\n'
    for document in "$@"; do
        printf '\n'
        sed -e '1{/^# /d}' -e 's/^##/#/' "$document"
    done
} | pandoc --from markdown --to man --standalone \
    --metadata title="$(printf '%s' "$name" | tr a-z A-Z)" --metadata section=1 \
    --metadata header=Bananagrams --metadata footer="$name $version" \
    --output "$out"
