"""Plays like the bundled faulty engine MUTANT (default mw-lifo; "reference" for the reference engine), at full speed
for its first SLOW_AFTER run requests (default 5), then sleeps SLOW_SECONDS (default 600) before each answer: a
run's timing made deterministic, so that a test can interrupt it in the middle of exploration with failures
already found. Once slow it writes a file named after its pid in SLOW_MARKS (if set); every pid (its own) is written
in PIDS_DIR (if set), so that a test can check that none outlives the harness. It ignores SIGINT and SIGTERM."""

import os
import signal
import sys
import time

from reference_engine.serve import Channel, mutant_server, reference_server

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for folder in filter(None, [os.environ.get("PIDS_DIR")]):
    open(os.path.join(folder, str(os.getpid())), "w").close()
AFTER = int(os.environ.get("SLOW_AFTER", "5"))
SLOW = float(os.environ.get("SLOW_SECONDS", "600"))
MUTANT = os.environ.get("MUTANT", "mw-lifo")
channel = Channel(sys.stdin.buffer, sys.stdout.buffer)
server = reference_server(channel) if MUTANT == "reference" else mutant_server(MUTANT, channel)
original = server.run
runs = 0


def run(message):
    global runs
    runs += 1
    if runs > AFTER:
        marks = os.environ.get("SLOW_MARKS")
        if marks:
            open(os.path.join(marks, str(os.getpid())), "w").close()
        time.sleep(SLOW)
    return original(message)


server.run = run
sys.exit(server.serve())
