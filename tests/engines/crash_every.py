"""Plays like the reference engine, but each of its processes dies (exit code 3) on every CRASH_EVERY-th run
request (default 5): an engine that crashes now and then."""

import os
import sys

from _reference import serve

EVERY = int(os.environ.get("CRASH_EVERY", "5"))
runs = 0


def on_run(message, run):
    global runs
    runs += 1
    if runs % EVERY == 0:
        print(f"crash_every: dying on purpose on run {runs}", file=sys.stderr, flush=True)
        os._exit(3)
    return run(message)


serve(on_run)
