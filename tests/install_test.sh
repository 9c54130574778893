#!/usr/bin/env bash
# cmake --install into a temporary prefix, then a game played with the installed programs only:
# bananagrams-host, bananagrams-reference-bot and the installed example player.
#   install_test.sh CMAKE BUILD_DIR
set -euo pipefail
cmake=$1 build=$2
prefix=$(mktemp -d /tmp/bg-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
chmod 755 "$prefix"  # as root, the players run as nobody: they must read the installed files
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
for file in bin/bananagrams-host bin/bananagrams-reference-bot \
        share/bananagrams-host/players/example_player.py \
        share/bananagrams-host/players/example_player_v2.py \
        share/doc/bananagrams-host/README.md share/doc/bananagrams-host/protocol-v2.md; do
    [[ -e $prefix/$file ]] || { echo "not installed: $file" >&2; exit 1; }
done
[[ ! -e $prefix/bin/host ]] || { echo "a program named host was installed" >&2; exit 1; }
# Read whole before it is searched: grep -q stops at its match, and a host whose stdout closes
# under it exits 4, which pipefail would take for this test's failure.
help=$("$prefix/bin/bananagrams-host" --help)
grep -q -- --replay <<<"$help"
result=$("$prefix/bin/bananagrams-host" --quiet --json --seed 5 \
    "exec $prefix/bin/bananagrams-reference-bot" \
    "exec python3 $prefix/share/bananagrams-host/players/example_player.py")
echo "$result"
python3 - "$result" <<'PY'
import json, sys
result = json.loads(sys.argv[1])
assert result["end"] in ("bananas", "game_timeout"), result["end"]
assert all(p["outcome"] != "disqualified" for p in result["players"]), result["players"]
PY
