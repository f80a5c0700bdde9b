"""Prints a log line on stdout (not JSON) before answering scenarios whose id starts with "noisy"."""

import sys

from _reference import serve


def on_run(message, run):
    if message["scenario"].get("id", "").startswith("noisy"):
        sys.stdout.buffer.write(b"DEBUG playing the scenario now\n")
    return run(message)


serve(on_run)
