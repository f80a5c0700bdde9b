"""Plays like the reference engine, but its process dies on its third run request (every process it is)."""

import os
import sys

from _reference import serve

runs = 0


def on_run(message, run):
    global runs
    runs += 1
    if runs == 3:
        print(f"crash_third: dying on purpose during run {message['id']}", file=sys.stderr, flush=True)
        os._exit(3)
    return run(message)


serve(on_run)
