"""Plays like the reference engine, slowly (SLOW_SECONDS per run request, default 0.05), ignoring SIGINT and SIGTERM,
with a child of its own that left its session and ignores them too. Every pid is written as a file in PIDS_DIR (if
set), so that a test can check that none outlives the harness."""

import os
import signal
import subprocess
import sys
import time

from _reference import serve

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import signal, time\n"
                          "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                          "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                          "time.sleep(600)"], start_new_session=True)
folder = os.environ.get("PIDS_DIR")
if folder:
    for pid in (os.getpid(), child.pid):
        open(os.path.join(folder, str(pid)), "w").close()
SLOW = float(os.environ.get("SLOW_SECONDS", "0.05"))


def on_run(message, run):
    time.sleep(SLOW)
    return run(message)


serve(on_run)
