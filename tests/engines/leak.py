"""Allocates memory (and uses it) until an allocation fails: on every scenario whose id starts with "leak", and with
``LEAK_AT=N`` on the N-th run request of each of its processes; plays the others. Its Python dies of the MemoryError
(a traceback on stderr), or with ``LEAK_SILENT=1`` exits with code 9 without a word: only its peak memory then says
why it died."""

import os
import sys

from _reference import serve

runs = 0


def leak():
    print("leak: allocating until it fails", file=sys.stderr, flush=True)
    kept = []
    if os.environ.get("LEAK_SILENT"):
        try:
            while True:
                kept.append(b"\1" * (4 << 20))
        except MemoryError:
            os._exit(9)
    while True:
        kept.append(b"\1" * (4 << 20))


def on_run(message, run):
    global runs
    runs += 1
    if message["scenario"].get("id", "").startswith("leak") or runs == int(os.environ.get("LEAK_AT", 0)):
        leak()
    return run(message)


serve(on_run)
