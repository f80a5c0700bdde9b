"""Plays like the reference engine, but ignores the order the harness chose for simultaneous triggers at random
(half of the time, from the operating system's randomness): the same scenario with the same choices sometimes
fails a rule and sometimes passes it, so that a shrinker replaying it sees an unreliable verdict."""

import random

import reference_engine.serve as protocol_server
from _reference import serve

chance = random.SystemRandom()
choose_order = protocol_server.ProtocolChooser.order


def order(self, player, triggers):
    answer = choose_order(self, player, triggers)
    return answer[::-1] if chance.random() < 0.5 else answer


protocol_server.ProtocolChooser.order = order
serve()
