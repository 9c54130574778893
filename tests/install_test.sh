#!/usr/bin/env bash
# cmake --install into a temporary prefix, then a game played with the installed programs only:
# bananagrams-host, bananagrams-reference-bot, a remote seat taken by bananagrams-connect, and the
# installed Python (which share
# example_grids.py: each must start though the sandbox hides the other's file) and JavaScript
# example players, and a tournament played by bananagrams-tournament; the installed C++ and Go
# examples built as their first lines say, and checked; the installed documents and man pages
# (every link resolves, no build-tree name, no groff warning as lintian reads them); and the
# Debian changelog that scripts/package writes from NEWS.md.
#   install_test.sh CMAKE BUILD_DIR
set -euo pipefail
cmake=$1 build=$2
source=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$(mktemp -d /tmp/bg-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
chmod 755 "$prefix"  # as root, the players run as nobody: they must read the installed files
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
for file in bin/bananagrams-host libexec/bananagrams-host/bananagrams-host-live \
        bin/bananagrams-reference-bot bin/bananagrams-connect \
        share/bananagrams-host/players/example_player.py \
        share/bananagrams-host/players/example_player_v2.py \
        share/bananagrams-host/players/example_grids.py \
        share/bananagrams-host/players/example_player.js \
        share/bananagrams-host/players/example_player.cpp \
        share/bananagrams-host/players/example_player.go bin/bananagrams-tournament \
        share/doc/bananagrams-host/README.md share/doc/bananagrams-host/protocol-v2.md \
        share/doc/bananagrams-host/write-a-bot.md share/doc/bananagrams-host/host.md \
        share/doc/bananagrams-host/tournament.md share/doc/bananagrams-host/security.md \
        share/doc/bananagrams-host/live.md share/doc/bananagrams-host/live-page.png \
        share/doc/bananagrams-host/remote.md share/man/man1/bananagrams-connect.1 \
        share/doc/bananagrams-host/play-page-desktop.png share/doc/bananagrams-host/play-page-phone.png \
        share/doc/bananagrams-host/arena-leaderboard.png share/doc/bananagrams-host/arena-live-page.png \
        share/doc/bananagrams-host/arena-play-match-over-phone.png \
        share/doc/bananagrams-host/NEWS.md share/doc/bananagrams-host/copyright \
        share/doc/bananagrams-host/examples/example_player.py \
        share/man/man1/bananagrams-host.1 share/man/man1/bananagrams-tournament.1 \
        share/man/man1/bananagrams-reference-bot.1; do
    [[ -e $prefix/$file ]] || { echo "not installed: $file" >&2; exit 1; }
done
[[ ! -e $prefix/bin/host ]] || { echo "a program named host was installed" >&2; exit 1; }
# bananagrams-host-live is run by the host alone: out of the PATH.
[[ ! -e $prefix/bin/bananagrams-host-live ]] ||
    { echo "bananagrams-host-live was installed in bin/" >&2; exit 1; }
# Read whole before it is searched: grep -q stops at its match, and a host whose stdout closes
# under it exits 4, which pipefail would take for this test's failure.
help=$("$prefix/bin/bananagrams-host" --help)
grep -q -- --replay <<<"$help"
# The man pages hold every option and the reference: the host's, the event log and the shares.
host_page=$(cat "$prefix/share/man/man1/bananagrams-host.1")
for text in '--cpus-per-game N' 'The event log' 'Machine shares' 'Exit status'; do
    grep -q -- "$text" <<<"$host_page" || { echo "not in the host's man page: $text" >&2; exit 1; }
done
grep -q -- 'The database' "$prefix/share/man/man1/bananagrams-tournament.1"
# Every man page renders without a groff warning, as lintian runs man (120 columns), and at 80.
for page in "$prefix"/share/man/man1/*.1; do
    for width in 120 80; do
        warnings=$(env -i PATH="$PATH" LC_ALL=C.UTF-8 MANROFFSEQ= MANWIDTH=$width \
            man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
        [[ -z $warnings ]] || { echo "${page##*/} at $width columns: $warnings" >&2; exit 1; }
    done
done
# Every link of the installed documents resolves, and no document or man page names the build
# tree or the source tree's players.
python3 "$source/tests/installed_docs.py" "$prefix"
# The Debian changelog as scripts/package writes it: dpkg-parsechangelog reads it, its first
# entry is this version's, and it holds each bullet of NEWS.md's section of this version.
version=$(cat "$build/version.txt")
mkdir -p "$prefix/changelog/debian"
"$source/scripts/changelog-from-news" "$source/NEWS.md" "$version" \
    "Someone <someone@example.org>" "Wed, 25 Nov 2026 12:00:00 +0000" \
    >"$prefix/changelog/debian/changelog"
parsed=$(cd "$prefix/changelog" && dpkg-parsechangelog -S Version && dpkg-parsechangelog -S Changes)
python3 - "$source/NEWS.md" "$version" "$parsed" "$prefix/changelog/debian/changelog" <<'PY'
import re, sys
news, version, parsed, changelog = sys.argv[1:]
found, changes = parsed.split("\n", 1)
assert found == version, (found, version)
section = re.search(r"^## %s \(.*?\)$(.*?)(?=^## |\Z)" % re.escape(version), open(news).read(),
                    re.M | re.S).group(1)
bullets = re.findall(r"^- (.*(?:\n  .*)*)", section, re.M)
assert bullets, section
flat = " ".join(changes.split())
for bullet in bullets:
    text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", " ".join(bullet.split()))
    text = text.replace("**", "").replace("`", "")
    assert text in flat, "not in the changelog: " + text
long = [line for line in open(changelog).read().splitlines() if len(line) > 80]
assert not long, long
print("changelog: %s, with its %d bullets of NEWS.md" % (found, len(bullets)))
PY
# Every installed program says the one version.
for program in bananagrams-host bananagrams-tournament bananagrams-reference-bot bananagrams-arena \
        bananagrams-connect; do
    [[ $("$prefix/bin/$program" --version) == "$program $(cat "$build/version.txt")" ]] ||
        { echo "$program --version: $("$prefix/bin/$program" --version)" >&2; exit 1; }
done
# The arena's systemd unit: systemd reads it without a complaint (its ExecStart is the installed
# program), and its command line, with the database and logs in a folder of this test's and a
# port of the kernel's, serves, and closes at SIGTERM; the Debian package's sysusers file makes
# its user.
unit=$prefix/lib/systemd/system/bananagrams-arena.service
systemd-analyze verify --man=no "$unit"
grep -q "^ExecStart=$prefix/bin/bananagrams-arena serve " "$unit" ||
    { echo "the unit's ExecStart: $(grep ExecStart= "$unit")" >&2; exit 1; }
state=$prefix/arena-state
mkdir -p "$state"
"$prefix/bin/bananagrams-arena" bot add --db "$state/arena.db" L1 \
    --command "$prefix/bin/bananagrams-reference-bot --level 1" 2>/dev/null
command=$(sed -n 's/^ExecStart=//p' "$unit" | sed -e "s|/var/lib/bananagrams-arena|$state|" \
    -e "s|/var/log/bananagrams-arena|$state/logs|" -e 's|${LISTEN}|127.0.0.1:0|' -e 's|$OPTIONS||')
mkdir -p "$state/logs"
$command 2>"$state/serve.err" &
arena_pid=$!
for _ in $(seq 100); do grep -q "listening on" "$state/serve.err" && break; sleep 0.1; done
kill -TERM "$arena_pid"
wait "$arena_pid" || { echo "the unit's command: $(cat "$state/serve.err")" >&2; exit 1; }
grep -q "closed (SIGTERM)" "$state/serve.err"
mkdir -p "$prefix/sysroot/etc"
systemd-sysusers --root="$prefix/sysroot" "$source/debian/bananagrams-host.sysusers" 2>/dev/null
grep -q "^bananagrams-arena:x:[0-9]*:[0-9]*:.*:/var/lib/bananagrams-arena:" "$prefix/sysroot/etc/passwd"
# --serve runs bananagrams-host-live, installed out of the PATH: a game of two players that leave
# at once is served and over.
served=$("$prefix/bin/bananagrams-host" --serve 127.0.0.1:0 --quiet "exit 0" "exit 0" 2>&1 >/dev/null)
grep -q "watch it live at http://127.0.0.1:" <<<"$served" ||
    { echo "bananagrams-host --serve: $served" >&2; exit 1; }
# A remote seat, taken by the installed bananagrams-connect with the installed reference bot.
remote_err=$prefix/remote.err
"$prefix/bin/bananagrams-host" --serve 127.0.0.1:0 --quiet --json "remote:" \
    "exec $prefix/bin/bananagrams-reference-bot" >"$prefix/remote.json" 2>"$remote_err" &
remote_host=$!
for _ in $(seq 100); do grep -q "a bot connects to" "$remote_err" && break; sleep 0.1; done
url=$(grep -o "ws://[^ ]*" "$remote_err")
"$prefix/bin/bananagrams-connect" "$url" -- "$prefix/bin/bananagrams-reference-bot" 2>/dev/null
wait "$remote_host"
python3 - "$prefix/remote.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
assert result["end"] == "bananas" and result["players"][0]["remote"]["connections"] == 1, result
PY
players=$prefix/share/bananagrams-host/players
# The installed word list, beside the players' folder, is where the examples look for it; under
# /tmp (this prefix) the sandbox shows a player only the folders its command names, so it is
# named (installed under /usr, it need not be).
[[ -r $prefix/share/bananagrams-host/wordlist/scowl-80.txt ]]
words="--dict $prefix/share/bananagrams-host/wordlist/scowl-80.txt"
result=$("$prefix/bin/bananagrams-host" --quiet --json --seed 5 --game-timeout 30 \
    "exec $prefix/bin/bananagrams-reference-bot" "exec python3 $players/example_player.py $words" \
    "exec python3 $players/example_player_v2.py $words" "exec node $players/example_player.js $words")
# Unsandboxed, the examples find the list themselves, beside their folder.
result_open=$("$prefix/bin/bananagrams-host" --quiet --json --seed 5 --game-timeout 30 --no-sandbox \
    "exec python3 $players/example_player_v2.py" "exec node $players/example_player.js")
python3 - "$result_open" <<'PY'
import json, sys
result = json.loads(sys.argv[1])
assert all(p["outcome"] != "disqualified" for p in result["players"]), result["players"]
PY
echo "$result"
python3 - "$result" <<'PY'
import json, sys
result = json.loads(sys.argv[1])
assert result["end"] in ("bananas", "game_timeout"), result["end"]
assert all(p["outcome"] != "disqualified" for p in result["players"]), result["players"]
PY

# The C++ and Go examples are installed as sources: each is built by the commands its first lines
# give (with this prefix for /usr), in a folder of its own, and passes --check.
work=$prefix/work
mkdir "$work"
for example in example_player.cpp example_player.go; do
    build_it=$(sed -n -E 's#^//( +|\t)((cp|c\+\+|go build) .*)#\2#p' "$players/$example" |
        sed "s#/usr/share/bananagrams-host/#$prefix/share/bananagrams-host/#g")
    [[ $(wc -l <<<"$build_it") -eq 2 ]] ||
        { echo "$example: no two build commands in its first lines: $build_it" >&2; exit 1; }
    (cd "$work" && env HOME="$work" GOCACHE="$work/go-cache" GOFLAGS= bash -euc "$build_it")
    program=$work/${example%.*}_${example##*.}
    checked=$("$prefix/bin/bananagrams-host" --check "exec $program")
    # The C++ example stays for a match (v004): its second game is checked too.
    grep -qE "(9 of 9|11 of 11) checks passed" <<<"$checked" ||
        { echo "$example, built from its installed source: $checked" >&2; exit 1; }
done

db=$prefix/tournament.db
standings=$("$prefix/bin/bananagrams-tournament" run --db "$db" --concurrency 2 --json \
    --bot "ref=exec $prefix/bin/bananagrams-reference-bot" \
    --bot "legacy=exec $prefix/bin/bananagrams-reference-bot --legacy" 2>/dev/null)
echo "$standings"
python3 - "$standings" <<'PY'
import json, sys
standings = json.loads(sys.argv[1])
assert standings["done"] == standings["games"] == 2, standings
assert sorted(b["name"] for b in standings["bots"]) == ["legacy", "ref"], standings["bots"]
PY
