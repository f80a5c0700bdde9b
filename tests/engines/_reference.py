"""Shared by the misbehaving test engines: the reference server, with a hook around each run request.

Each engine script is started as ``python tests/engines/NAME.py`` with the repository on PYTHONPATH.
"""

import os
import sys

from reference_engine.serve import Channel, mutant_server, reference_server


def serve(on_run=None, protocol=2):
    """Serve the reference engine (or, with the environment variable ``MUTANT`` set, that bundled faulty engine);
    ``on_run(message, run)`` wraps every run request (``run`` plays it normally). ``protocol``: the version to speak
    (1 for an engine that changes the answers the harness gives it)."""
    channel = Channel(sys.stdin.buffer, sys.stdout.buffer)
    mutant = os.environ.get("MUTANT")
    server = mutant_server(mutant, channel, protocol) if mutant else reference_server(channel, protocol)
    if on_run is not None:
        original = server.run
        server.run = lambda message: on_run(message, original)
    sys.exit(server.serve())
