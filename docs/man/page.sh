#!/bin/sh
# Writes a program's man page: its NAME, what its --help prints (every option, the exit
# statuses), then the reference documents given, their titles dropped and their sections made
# the page's; all of it with the installed names (NAMES: docs/installed-names.sed as CMake fills
# it in, which leaves out the help's note on the build tree's names), and pandoc turns it into
# roff.
#
#     page.sh PROGRAM NAME SUMMARY VERSION NAMES OUT [DOCUMENT.md ...]
#
# The reference's tables hold paths and commands in narrow columns. Justified, a line of such a
# column could not be adjusted (groff's "cannot adjust line"), and hyphens would split a path
# where a reader copies it: the page is left-aligned and unhyphenated, and in a table a path may
# break after a '/' instead (\:, a break point that prints nothing). Pandoc makes every table 70
# ens wide, which with the gaps between its columns is wider than an 80-column terminal shows
# (71 ens beside the indent): each table's columns are scaled, in proportion, to fit. And each
# table asks for its room first (.ne), as groff needs of a table on a continuous page.
set -eu
program=$1 name=$2 summary=$3 version=$4 names=$5 out=$6
shift 6
{
    printf '# NAME\n\n%s - %s\n\n# OPTIONS\n\nWhat `%s --help` prints:\n\n```\n' \
        "$name" "$summary" "$name"
    "$program" --help
    printf '```\n'
    for document in "$@"; do
        printf '\n'
        sed -e '1{/^# /d}' -e 's/^##/#/' "$document"
    done
} | sed -E -z -f "$names" | pandoc --from markdown --to man --standalone \
    --variable adjusting=l --metadata hyphenate=false \
    --metadata title="$(printf '%s' "$name" | tr a-z A-Z)" --metadata section=1 \
    --metadata header=Bananagrams --metadata footer="$name $version" \
    --output "$out.pandoc"
awk -v width=71 '
    # A table is held until its end, then written after a .ne that asks for the room it may
    # take: a text block that reaches past the page, which a continuous page (man) only grows
    # at a .ne, gets groff'"'"'s "table text block will not fit on one page" however short it is.
    /^\.TS$/ { table = 1; rows = 0; room_asked = 0; narrowest = width }
    !table { print; next }
    # Its format line: "lw(W1n) lw(W2n) ... ." with a 3-en gap between columns.
    /^lw\([0-9.]+n\)( lw\([0-9.]+n\))*\.$/ {
        n = split(substr($0, 1, length($0) - 1), columns, " ")
        total = 0
        for (i = 1; i <= n; i++) {
            w[i] = substr(columns[i], 4, length(columns[i]) - 5) + 0
            total += w[i]
        }
        room = width - 3 * (n - 1) - 1
        line = ""
        for (i = 1; i <= n; i++) {
            line = line (i > 1 ? " " : "") sprintf("lw(%.1fn)", w[i] * room / total)
            if (w[i] * room / total < narrowest)
                narrowest = w[i] * room / total
        }
        held[++rows] = line "."
        next
    }
    # A line of text: a path may break after each "/"; its height is at most twice its length
    # over the narrowest column.
    !/^\./ && !/^T[{}]/ && !/^tab\(/ && !/^_$/ {
        gsub("/", "/\\:")
        room_asked += int(2 * length($0) / narrowest) + 1
    }
    { held[++rows] = $0 }
    /^\.TE$/ {
        print ".ne " room_asked "v"
        for (i = 1; i <= rows; i++)
            print held[i]
        table = 0
    }
' "$out.pandoc" >"$out"
rm -f "$out.pandoc"
