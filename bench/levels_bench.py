#!/usr/bin/env python3
"""The reference bot's levels, measured against the example players: for each level, a
tournament of the reference bot at that level against the Python v2 example, and one against the
C++ example, each of --deals deals played in both seatings, one game at a time, on the default
word list.

    levels_bench.py BUILD_DIR [--levels 1,2,3,4,5] [--opponents py2,cpp] [--deals N]
                    [--seed S] [--game-timeout SECONDS] [--markdown]

Prints, for each level and opponent: the reference bot's wins with the Wilson 95% interval the
tournament's standings give, the opponent's accepted peels a game and the games in which it had
one accepted, dumps a game, the games' ends and their median length. Measure the Release build
that users run (scripts/setup release; build-release/), on a quiet machine.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

import bundled_bots


def tournament(build, folder, level, opponent, args):
    """The games and the standings of the reference bot at `level` against `opponent`."""
    db = os.path.join(folder, "level%d-%s.db" % (level, opponent))
    command = [os.path.join(build, "tournament"), "run", "--db", db, "--deals", str(args.deals),
               "--seed", str(args.seed), "--concurrency", "1",
               "--game-timeout", str(args.game_timeout), "--rating-interval", "1000000",
               "--json",
               "--bot", "ref%d=%s" % (level, bundled_bots.command(build, "ref", "--level %d" % level)),
               "--bot", "%s=%s" % (opponent, bundled_bots.command(build, opponent))]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("levels_bench: the tournament of level %d against %s failed:\n%s" %
                 (level, opponent, run.stderr))
    standings = json.loads(run.stdout)
    listed = subprocess.run([os.path.join(build, "tournament"), "games", "--db", db, "--json"],
                            capture_output=True, text=True, check=True)
    return json.loads(listed.stdout), standings


def row(level, opponent, games, standings):
    ref = next(b for b in standings["bots"] if b["name"] == "ref%d" % level)
    theirs = [s for g in games for s in g["seats"] if s["bot"] == opponent]
    ours = [s for g in games for s in g["seats"] if s["bot"] != opponent]
    n = len(games)
    ends = collections.Counter(g["end"] for g in games)
    return {
        "level": level, "opponent": opponent, "games": n,
        "ref_wins": ref["wins"],
        "ref_win_rate": ref["win_rate"],
        "ref_win_low": ref["win_rate_low"], "ref_win_high": ref["win_rate_high"],
        "opponent_peels": sum(s["peels"] for s in theirs) / n,
        "opponent_games_with_peel": sum(s["peels"] > 0 for s in theirs),
        "ref_peels": sum(s["peels"] for s in ours) / n,
        "ref_dumps": sum(s["dumps"] for s in ours) / n,
        "median_s": statistics.median(g["duration_ms"] for g in games) / 1000,
        "ends": dict(ends),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--levels", default="1,2,3,4,5")
    parser.add_argument("--opponents", default="py2,cpp")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game-timeout", type=int, default=600)
    parser.add_argument("--markdown", action="store_true", help="the table as Markdown")
    args = parser.parse_args()
    build = os.path.realpath(args.build)
    rows = []
    with tempfile.TemporaryDirectory(dir=build) as folder:
        os.chmod(folder, 0o755)  # as root, the bots run as nobody, who must reach the logs' folder
        for level in (int(x) for x in args.levels.split(",")):
            for opponent in args.opponents.split(","):
                games, standings = tournament(build, folder, level, opponent, args)
                rows.append(row(level, opponent, games, standings))
                r = rows[-1]
                print("level %d vs %-3s: ref wins %2d/%d (%.0f%%, 95%% [%.0f, %.0f]), %s "
                      "accepted peels %.1f a game (in %d of %d games), ref peels %.1f dumps %.1f, "
                      "median %.1f s, ends %s" % (
                          level, opponent, r["ref_wins"], r["games"], 100 * r["ref_win_rate"],
                          100 * r["ref_win_low"], 100 * r["ref_win_high"], opponent,
                          r["opponent_peels"], r["opponent_games_with_peel"], r["games"],
                          r["ref_peels"], r["ref_dumps"], r["median_s"], r["ends"]),
                      flush=True)
    if args.markdown:
        print("\n| level | opponent | games | reference bot wins (95%) | opponent's accepted "
              "peels a game | games with one | median game |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            print("| %d | %s | %d | %d (%.0f%%, [%.0f, %.0f]) | %.1f | %d of %d | %.1f s |" % (
                r["level"], r["opponent"], r["games"], r["ref_wins"], 100 * r["ref_win_rate"],
                100 * r["ref_win_low"], 100 * r["ref_win_high"], r["opponent_peels"],
                r["opponent_games_with_peel"], r["games"], r["median_s"]))


if __name__ == "__main__":
    main()
