"""An engine that fails the handshake, the way given as its argument (standard library only):

* ``crash``: writes a traceback-like line on stderr and exits 3 before answering anything;
* ``garbage``: answers the start message with a line that is not JSON;
* ``exit0``: exits 0 at once, reading nothing;
* ``hang``: reads the start message and never answers.
"""

import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
if mode == "exit0":
    sys.exit(0)
line = sys.stdin.readline()
if mode == "crash":
    print("bad_start: ImportError: no module named 'rules_core' (dying on purpose)", file=sys.stderr, flush=True)
    sys.exit(3)
if mode == "garbage":
    print("Welcome to EngineX 2.0! type 'help' for help", flush=True)
    sys.stdin.readline()
    sys.exit(0)
if mode == "hang":
    time.sleep(600)
