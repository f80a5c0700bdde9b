"""Plays like the reference engine, but on its LOG_THEN_RAISE-th run request (default 1) it writes a log line to
stderr and then raises an uncaught ValueError: Python prints the traceback on stderr and the process exits with code
1. What the engine said on stderr must reach the verdict."""

import os
import sys

from _reference import serve

AT = int(os.environ.get("LOG_THEN_RAISE", "1"))
runs = 0


def on_run(message, run):
    global runs
    runs += 1
    if runs == AT:
        print(f"log_then_raise: about to fail on run {message['id']}", file=sys.stderr, flush=True)
        raise ValueError("log_then_raise: no such ability ABC-123")
    return run(message)


serve(on_run)
