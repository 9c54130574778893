#!/usr/bin/env python3
"""Where each example player (players/example_*: Python legacy and v2, C++, JavaScript, Go) finds
its word list, and what it does when it cannot read it.

It reads `--dict FILE` if given, else `$BANANAGRAMS_WORDLIST` if set and not empty (the host sets
it to the game's list), else the built-in list beside its folder. A list it cannot read (missing,
unreadable, a folder, no words in it) is one line on stderr naming the file and why, a non-zero
exit, and nothing on stdout: no traceback, no uncaught exception, no panic.

The players run under a fake host (pipes), and in real games (sandboxed, as the host runs them)
whose `--dict` list, every two-letter string in a folder of its own, only the host's
BANANAGRAMS_WORDLIST tells them of: a player that read another list would play words the game
does not know, and be put out.

    example_wordlist_test.py SOURCE_DIR BUILD_DIR EXAMPLE_CPP EXAMPLE_GO NODE
"""
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile

VARIABLE = "BANANAGRAMS_WORDLIST"
source, build, example_cpp, example_go, node = sys.argv[1:6]
players_dir = os.path.join(source, "players")
# name: (the command, the protocol it speaks: "legacy", or the v2 version it asks for)
PLAYERS = {
    "Python legacy": (["python3", os.path.join(players_dir, "example_player.py")], "legacy"),
    "Python v2": (["python3", os.path.join(players_dir, "example_player_v2.py")], "v004"),
    "C++": ([example_cpp], "v004"),
    "JavaScript": ([node, os.path.join(players_dir, "example_player.js")], "v002"),
    "Go": ([example_go], "v002"),
}
# The fake host's first bytes (legacy: the hand; v2: the version, then the hand as of peel 0).
HAND = {"legacy": b"JQXZ", "v002": b"V002.H0000JQXZ.", "v004": b"V0040102.H0000JQXZ."}
# What the player answers: with a list holding QZXJ, that one word as its peel; with the
# built-in list, which has no word of these letters, a dump of its Q.
PEEL = {"legacy": b"rp004001QZXJ", "v002": b"v002RP0000004001QZXJ",
        "v004": b"v004RP0000004001QZXJ"}
DUMP = {"legacy": b"rdQ", "v002": b"v002RDQ", "v004": b"v004RDQ"}
failures = []


def run(name, args=(), env=None, stdin=b"", as_user=None):
    """The player `name` run with `args`, its environment's word list variable set to `env`
    (None: unset), `stdin` written and closed: (exit status, stdout bytes, stderr text)."""
    command, _ = PLAYERS[name]
    environment = {k: v for k, v in os.environ.items() if k != VARIABLE}
    if env is not None:
        environment[VARIABLE] = env
    prefix = []
    if as_user:
        prefix = ["setpriv", "--reuid=%d" % as_user.pw_uid, "--regid=%d" % as_user.pw_gid,
                  "--clear-groups"]
    done = subprocess.run(prefix + command + list(args), input=stdin, env=environment,
                          capture_output=True, timeout=60, cwd=work)
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what, flush=True)


def cannot_read(name, case, path, why, args=(), env=None, as_user=None):
    """The player fails as it must on the word list `path`, the reason matching `why`."""
    status, out, err = run(name, args, env, HAND[PLAYERS[name][1]], as_user)
    what = "%s, %s: exit %d, stdout %r, stderr %r" % (name, case, status, out, err)
    print("%s, %s: exit %d: %s" % (name, case, status, err.rstrip("\n")), flush=True)
    check(status > 0, what + ": should exit non-zero (not by a signal)")
    check(out == b"", what + ": should send nothing on stdout")
    lines = err.split("\n")
    check(len(lines) == 2 and lines[1] == "", what + ": should be exactly one line on stderr")
    line = lines[0]
    check("Traceback" not in err and "panic" not in err and "    at " not in err,
          what + ": should not be a traceback")
    check(re.match(r"example_player\S*: cannot read the word list ", line),
          what + ": should say, as the player, that it cannot read the word list")
    check(" %s: " % path in line, what + ": should name " + path)
    check(re.search(why, line[line.find(path) + len(path):], re.I),
          what + ": should say why (%s)" % why)


def plays(name, case, expected, args=(), env=None):
    """The player reads a list it can and answers the fake host's hand with `expected`."""
    protocol = PLAYERS[name][1]
    status, out, err = run(name, args, env, HAND[protocol])
    what = "%s, %s: exit %d, stdout %r, stderr %r" % (name, case, status, out, err)
    print("%s, %s: sent %r" % (name, case, out), flush=True)
    check(status == 0 and err == "", what + ": should play and exit 0 at the end of its input")
    check(out == expected[protocol], what + ": should have sent %r" % expected[protocol])


def host_game(name, words):
    """A game of the player (its command naming no list) against a bot that leaves at the first
    peel, judged by `words`: the player's peels must be accepted."""
    command, _ = PLAYERS[name]
    bot = "exec python3 %s leave-at-a-peel" % os.path.join(source, "tests", "bots", "test_bot.py")
    done = subprocess.run(
        [os.path.join(build, "host"), "--json", "--seed", "3", "--game-timeout", "60", "--dict",
         words, "exec " + " ".join(command), bot],
        capture_output=True, text=True, timeout=120, cwd=work)
    what = "%s in a game with --dict %s: exit %d\n%s" % (name, words, done.returncode,
                                                       done.stderr[-3000:])
    print("%s in a game: exit %d" % (name, done.returncode), flush=True)
    if done.returncode != 0:
        check(False, what)
        return
    player = json.loads(done.stdout)["players"][0]
    print("  ", {k: player[k] for k in ("outcome", "reason", "peels", "grid")}, flush=True)
    check(player["outcome"] == "won" and player["reason"] is None,
          what + ": should have won, not been put out (%s)" % player["reason"])
    check(player["peels"] >= 1, what + ": should have had a peel accepted")


def main():
    global work
    with tempfile.TemporaryDirectory() as work:
        os.chmod(work, 0o755)  # as root, players run as nobody here (setpriv, the sandbox)
        qzxj = os.path.join(work, "qzxj.txt")  # one word, in no other list
        with open(qzxj, "w") as f:
            f.write("qzxj\n")
        missing = os.path.join(work, "missing", "words.txt")
        gone = os.path.join(work, "gone.txt")
        folder = os.path.join(work, "a-folder")
        os.mkdir(folder)
        no_words = os.path.join(work, "no-words.txt")  # lines, but none a word of 2+ letters
        with open(no_words, "w") as f:
            f.write("a\n42\ncan't\n\n")
        secret = os.path.join(work, "secret.txt")
        shutil.copy(qzxj, secret)
        os.chmod(secret, 0)
        # Root reads any file: the unreadable one is tried as nobody.
        reader = pwd.getpwnam("nobody") if os.geteuid() == 0 else None

        for name in PLAYERS:
            cannot_read(name, "--dict of a missing file", missing, "no such file",
                        args=["--dict", missing])
            cannot_read(name, VARIABLE + " naming a missing file", gone, "no such file",
                        env=gone)
            cannot_read(name, "--dict of a folder", folder, "directory", args=["--dict", folder])
            cannot_read(name, VARIABLE + " naming an unreadable file", secret, "permission denied",
                        env=secret, as_user=reader)
            cannot_read(name, "--dict of a file with no words", no_words, "no words",
                        args=["--dict", no_words])
            cannot_read(name, "--dict of a missing file, before a readable " + VARIABLE,
                        missing, "no such file", args=["--dict", missing], env=qzxj)
            plays(name, VARIABLE + " naming the list", PEEL, env=qzxj)
            plays(name, "--dict, before " + VARIABLE + " naming a missing file", PEEL,
                  args=["--dict", qzxj], env=gone)
            plays(name, VARIABLE + " empty: the built-in list", DUMP, env="")

        words = os.path.join(work, "game", "words.txt")
        os.mkdir(os.path.dirname(words))
        shutil.copy(os.path.join(source, "tests", "data", "two_letters.txt"), words)
        for name in PLAYERS:
            host_game(name, words)

    if failures:
        sys.exit("%d failed:\n%s" % (len(failures), "\n".join(failures)))
    print("ok: every example finds its word list, and says in one line when it cannot read it")


if __name__ == "__main__":
    main()
