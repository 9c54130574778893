"""What the benches read of a program that serves (host --serve, tournament --serve)."""
import re
import sys


def served_port(stderr, bench, program):
    """The loopback port `program` says it serves on, read from its stderr's lines; `bench`
    exits, saying so, if it ends without one."""
    while True:
        line = stderr.readline()
        if not line:
            sys.exit("%s: the %s said no address" % (bench, program))
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return int(found.group(1))
