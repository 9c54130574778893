#!/usr/bin/env python3
"""How often the same deal between the same two bots gives the same winner, and how many games
the host flags as contended (a player waited for a CPU: docs/host.md, "Fair races"), under each
way of sharing the machine. The reference bot in protocol v2 against itself in the legacy
protocol (the demo's bots), on the default word list, each deal played twice with the same
seats:

  alone    one game at a time
  two      two games at once (two hosts)
  hog      one game at a time beside a CPU hog outside the host (a spinner a core)
  pinned   two games at once, each with --cpus-per-game 1 (a core a game, its two players on it)
  whole    one game at a time with --cpus-per-game set to every core (pinned, the machine its own)
  seeds    one game at a time, the bots given other --seed values in the second play (what
           the bots' own randomness does)

    fair_race_bench.py BUILD_DIR [--deals N] [--ways alone,two,...] [--keep DIR]

For each way: the deals whose two plays had the same winner, the games flagged contended, the
median and 90th percentile of a game's longest wait; and for the deals whose plays differ,
where their logs first part (the inputs after the deal, ignoring times), with the median time
between the two messages that came in the other order (how close that race was):
  order, across turns   two players' messages came in the other order, in different turns of the
                        host's loop in both plays: which came first was the scheduler's timing
  order, in one turn    the same, but in one play both came in one turn: the host's drawn order
                        of a turn's arrivals decided (which messages share a turn is timing too)
  a bot's move          one player sent another move after the same inputs: what it had read by
                        then (timing), or its own randomness (the seeds way)
  a timer               a timer fired in one play and not the other
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile

WAYS = {
    "alone": {"at_once": 1, "host": [], "hog": False, "reseed": False},
    "two": {"at_once": 2, "host": [], "hog": False, "reseed": False},
    "hog": {"at_once": 1, "host": [], "hog": True, "reseed": False},
    "pinned": {"at_once": 2, "host": ["--cpus-per-game", "1"], "hog": False, "reseed": False},
    "whole": {"at_once": 1, "host": ["--cpus-per-game", str(os.cpu_count() or 2)], "hog": False,
              "reseed": False},
    "seeds": {"at_once": 1, "host": [], "hog": False, "reseed": True},
}


def play(build, folder, way, deal, play_no):
    """One game; its result, and its log's path."""
    options = WAYS[way]
    seeds = (1, 2) if not (options["reseed"] and play_no == 2) else (3, 4)
    log = os.path.join(folder, "%s-%d-%d.jsonl" % (way, deal, play_no))
    run = subprocess.run(
        [os.path.join(build, "host"), "--json", "--quiet", "--seed", str(deal), "--log", log]
        + options["host"]
        + ["exec %s/reference_bot --seed %d" % (build, seeds[0]),
           "exec %s/reference_bot --legacy --seed %d" % (build, seeds[1])],
        capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("fair_race_bench: the host failed (%d):\n%s" % (run.returncode, run.stderr))
    return json.loads(run.stdout), log


def inputs_after_deal(log):
    """The inputs after the hands were dealt, each with its time, as (time, input)."""
    records = [json.loads(line) for line in open(log)]
    inputs = [(r["t"], r["input"]) for r in records if "input" in r]
    # The deal follows the last ready: before it, only the order of readies differs.
    last_ready = max((i for i, (_, e) in enumerate(inputs) if e.get("type") == "ready"),
                     default=-1)
    return inputs[last_ready + 1:]


def parting(log_a, log_b):
    """Where two plays of a deal first part, as one of the kinds the module's text names, and
    for two messages in the other order, the time between them in the first play (ms)."""
    a, b = inputs_after_deal(log_a), inputs_after_deal(log_b)
    for k in range(min(len(a), len(b))):
        (ta, ea), (tb, eb) = a[k], b[k]
        if ea == eb:
            continue
        if "player" not in ea or "player" not in eb:
            return "a timer", None
        if ea["player"] == eb["player"]:
            return "a bot's move", None
        # The other play's message, where the first play has it next from that player.
        later = next((t for t, e in a[k + 1:] if e == eb), None)
        gap = (later - ta) / 1e6 if later is not None else None
        # Did the two come in the same turn, in either play?
        same_turn = (k + 1 < len(a) and a[k + 1][0] == ta and a[k + 1][1] == eb) or \
                    (k + 1 < len(b) and b[k + 1][0] == tb and b[k + 1][1] == ea)
        return ("order, in one turn" if same_turn else "order, across turns"), gap
    return "no parting (one log ends first)", None


def hog():
    """A spinner a core, outside the host (in this program's cgroup)."""
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(os.cpu_count() or 2)]


def run_way(build, folder, way, deals):
    """Both plays of every deal; the second play of a block of deals after its first."""
    options = WAYS[way]
    spinners = hog() if options["hog"] else []
    results = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(options["at_once"]) as pool:
            for block in range(0, deals, 10):
                batch = list(range(block + 1, min(block + 10, deals) + 1))
                for play_no in (1, 2):
                    jobs = {pool.submit(play, build, folder, way, deal, play_no): deal
                            for deal in batch}
                    for job in concurrent.futures.as_completed(jobs):
                        results[(jobs[job], play_no)] = job.result()
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return results


def summary(way, deals, results):
    same = 0
    partings = {}
    gaps = {}
    flagged = 0
    unknown = 0
    longest = []
    for deal in range(1, deals + 1):
        (first, log_a), (second, log_b) = results[(deal, 1)], results[(deal, 2)]
        if first["winner"] == second["winner"]:
            same += 1
        else:
            kind, gap = parting(log_a, log_b)
            partings[kind] = partings.get(kind, 0) + 1
            if gap is not None:
                gaps.setdefault(kind, []).append(gap)
        for result in (first, second):
            flagged += result["contended"] is True
            unknown += result["contended"] is None
            waits = [p["cpu_wait_ms"] for p in result["players"] if p["cpu_wait_ms"] is not None]
            if waits and result["race_ms"]:
                longest.append((max(waits), max(waits) / result["race_ms"]))
    waits = sorted(w for w, _ in longest)
    shares = sorted(s for _, s in longest)
    pct = lambda values, q: values[min(len(values) - 1, int(q * len(values)))] if values else 0
    print("%-7s %3d/%d same winner (%4.1f%%)  flagged %3d/%d%s  longest wait: median %7.1f ms "
          "(%4.1f%% of the race), p90 %7.1f ms (%4.1f%%)" % (
              way, same, deals, 100 * same / deals, flagged, 2 * deals,
              " (%d unknown)" % unknown if unknown else "", statistics.median(waits) if waits else 0,
              100 * (statistics.median(shares) if shares else 0), pct(waits, 0.9),
              100 * pct(shares, 0.9)))
    for kind, count in sorted(partings.items(), key=lambda item: -item[1]):
        print("          parted by %-22s %3d%s" % (kind, count, "   (the two messages %.2f ms apart, "
              "median)" % statistics.median(gaps[kind]) if kind in gaps else ""))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--ways", default="alone,two,hog,pinned,whole,seeds")
    parser.add_argument("--keep", help="keep the games' logs in DIR")
    args = parser.parse_args()
    ways = args.ways.split(",")
    for way in ways:
        if way not in WAYS:
            sys.exit("fair_race_bench: no way '%s' (%s)" % (way, ", ".join(WAYS)))
    print("%d deals played twice each, reference_bot (v2) against reference_bot --legacy, "
          "build %s" % (args.deals, os.path.realpath(args.build)))
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or scratch
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o755)
        for way in ways:
            summary(way, args.deals, run_way(args.build, folder, way, args.deals))


if __name__ == "__main__":
    main()
