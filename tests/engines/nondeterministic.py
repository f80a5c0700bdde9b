"""Plays like the reference engine, but on every second run request reverses the order the harness chose (with
REVERSE_FIRST=1 in its environment: the first, third... instead)."""

import os

import reference_engine.serve as protocol_server
from _reference import serve

runs = 0
REVERSED = 1 if os.environ.get("REVERSE_FIRST") == "1" else 0
choose_order = protocol_server.ProtocolChooser.order


def order(self, player, triggers):
    answer = choose_order(self, player, triggers)
    return answer[::-1] if runs % 2 == REVERSED else answer


def on_run(message, run):
    global runs
    runs += 1
    return run(message)


protocol_server.ProtocolChooser.order = order
serve(on_run, protocol=1)  # it changes the answers the harness gives it: every choice is asked
