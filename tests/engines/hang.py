"""Hangs, with a child process of its own, on every scenario whose id starts with "hang"; plays the others."""

import subprocess
import sys
import time

from _reference import serve


def on_run(message, run):
    if message["scenario"].get("id", "").startswith("hang"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        print(f"hang: child pid {child.pid}", file=sys.stderr, flush=True)
        time.sleep(300)
    return run(message)


serve(on_run)
