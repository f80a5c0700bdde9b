"""Plays like the reference engine; scenarios whose id starts with "fork" make it start a child that keeps the
engine's stdin, stdout and stderr open and sleeps.

"fork-die...": the engine then dies (exit code 4) while its child holds the pipes open.
"fork-setsid-die...": the same, but the child first leaves the engine's session and process group.
"fork-setsid-live...": the child leaves the session, and the engine plays on (the child must die with the engine).
Each child's pid is written on stderr as "forking: child pid N".
"""

import os
import subprocess
import sys

from _reference import serve


def on_run(message, run):
    name = message["scenario"].get("id", "")
    if name.startswith("fork"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                                 start_new_session="setsid" in name, close_fds=False)
        print(f"forking: child pid {child.pid}", file=sys.stderr, flush=True)
        if "die" in name:
            os._exit(4)
    return run(message)


serve(on_run)
