"""The bundled players as the benchmarks start them, by short name: the reference bot and the
example players (the C++ and Go ones as a build makes them)."""
import os
import sys

SOURCE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
NAMES = ("ref", "py2", "cpp", "js", "go")


def command(build, name, extra=""):
    """The command that starts bundled player `name` of `build`, with `extra` arguments."""
    players = os.path.join(SOURCE, "players")
    commands = {
        "ref": "exec %s/reference_bot" % build,
        "py2": "exec python3 %s/example_player_v2.py" % players,
        "cpp": "exec %s/example_player_cpp" % build,
        "js": "exec node %s/example_player.js" % players,
        "go": "exec %s/example_player_go" % build,
    }
    if name not in commands:
        sys.exit("unknown bundled player %s (one of %s)" % (name, ", ".join(NAMES)))
    return commands[name] + (" " + extra if extra else "")
