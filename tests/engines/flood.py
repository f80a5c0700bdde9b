"""On scenarios whose id starts with "flood": 4 MiB on stderr, then bytes on stdout without end nor line break."""

import sys

from _reference import serve


def on_run(message, run):
    if message["scenario"].get("id", "").startswith("flood"):
        sys.stderr.write("flood: here it comes\n" + "e" * (4 << 20) + "\nflood: stderr done\n")
        sys.stderr.flush()
        block = b"x" * 65536
        while True:
            sys.stdout.buffer.write(block)
    return run(message)


serve(on_run)
