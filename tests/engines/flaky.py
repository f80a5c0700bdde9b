"""Plays like the reference engine, but ignores the order the harness chose for simultaneous triggers at random:
each run request is played faithfully or with every chosen order reversed, by the operating system's randomness,
except that the same way is never drawn three times in a row. The same scenario with the same choices sometimes
fails a rule and sometimes passes it, so that a shrinker replaying it sees an unreliable verdict, and any three
consecutive plays show both answers."""

import random

import reference_engine.serve as protocol_server
from _reference import serve

chance = random.SystemRandom()
choose_order = protocol_server.ProtocolChooser.order
history: list[bool] = []


def order(self, player, triggers):
    answer = choose_order(self, player, triggers)
    return answer[::-1] if history and history[-1] else answer


def on_run(message, run):
    reverse = chance.random() < 0.5
    if len(history) >= 2 and history[-1] == history[-2]:
        reverse = not history[-1]
    history.append(reverse)
    return run(message)


protocol_server.ProtocolChooser.order = order
serve(on_run, protocol=1)  # it changes the answers the harness gives it: every choice is asked
