#!/usr/bin/env python3
"""Runs docs/write-a-bot.md as a reader would: writes each file it shows (a block tagged
`file=PATH`) and runs each of its shell commands, in order, in a fresh folder outside the clone
that holds the build as `build/` and a copy of the word list (as the page says to make one). Every command must succeed; the bot must pass `host --check` and play its
games without being disqualified. Then the bot, under a fake host, must play from the list that
$BANANAGRAMS_WORDLIST names, as the page says it does.

    write_a_bot_test.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def steps(page):
    """("file", path, text) and ("run", command) in the page's order."""
    found = []
    for block in re.finditer(r"^( *)```(\w+)([^\n]*)\n(.*?)^\1```$", page, re.S | re.M):
        indent, language, info, body = block.groups()
        body = "".join(line[len(indent):] + "\n" for line in body.splitlines())
        target = re.search(r"file=(\S+)", info)
        if target:
            found.append(("file", target.group(1), body))
        elif language == "sh":
            found += [("run", line) for line in body.splitlines()
                      if line.strip() and not line.lstrip().startswith("#")]
    return found


def main():
    source, build = sys.argv[1], sys.argv[2]
    with open(os.path.join(source, "docs", "write-a-bot.md")) as f:
        page = f.read()
    todo = steps(page)
    assert [s[0] for s in todo].count("run") >= 4, todo
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # as root, the bots run as nobody: they must read mybot/
        os.symlink(build, os.path.join(folder, "build"))
        shutil.copy(os.path.join(source, "wordlist", "scowl-80.txt"), folder)
        for step in todo:
            if step[0] == "file":
                path = os.path.join(folder, step[1])
                with open(path, "w") as f:
                    f.write(step[2])
                os.chmod(path, 0o755)
                print("wrote", step[1])
                continue
            command = step[1]
            print("$", command, flush=True)
            run = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True,
                                 text=True, timeout=300)
            print(run.stdout, run.stderr[-3000:], sep="\n")
            assert run.returncode == 0, "%r exited %d" % (command, run.returncode)
            assert "disqualified" not in run.stdout, "%r: a bot was disqualified" % command
            if "--check" in command:
                assert "9 of 9 checks passed. It is ready to play." in run.stdout, command
        # Told of a list of one word that no other list holds, the bot peels it, dealt its
        # letters; not told, run by hand, it reads the copy of scowl-80: no word of JQXZ, a dump.
        words = os.path.join(folder, "qzxj.txt")
        with open(words, "w") as f:
            f.write("qzxj\n")
        bot = [step[1] for step in todo if step[0] == "file"][0]
        env = {k: v for k, v in os.environ.items() if k != "BANANAGRAMS_WORDLIST"}
        for told, answer in ((words, b"v002RP0000004001QZXJ"), (None, b"v002RDQ")):
            run = subprocess.run(["python3", bot], cwd=folder, input=b"V002.H0000JQXZ.",
                                 capture_output=True, timeout=60,
                                 env=dict(env, BANANAGRAMS_WORDLIST=told) if told else env)
            print("the bot, BANANAGRAMS_WORDLIST=%s, dealt JQXZ, sent %r" % (told, run.stdout))
            assert run.returncode == 0, run.stderr.decode(errors="replace")
            assert run.stdout == answer, "it should have sent %r" % answer
    print("ok: every step of docs/write-a-bot.md works")


if __name__ == "__main__":
    main()
