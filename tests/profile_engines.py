"""In-process engines for tests/test_engine_profile.py (imported as ``profile_engines:NAME`` with tests/ on the
path): engines whose generation profile is wrong, and a partial engine that records every scenario it is handed."""

from __future__ import annotations

import json

from plugin_engines import _Wrapped as _Lifo
from reference_engine.kernel.engine import Skipped

# What a Momon Wonder scenario uses for each feature the partial engine leaves out (triggers and actions).
EXCLUDED = ["mark_defeat", "move", "summon", "failed_summon"]
EXCLUDED_WORDS = ('"defeated"', '"enter"', '"leave"', '"summon"', '"summon_failed"', '"mark"', '"move"',
                  '"succeeds"')


class _Wrapped(_Lifo):
    inner_spec = "reference"


class MisspeltProfile(_Wrapped):
    def generation_profile(self, ruleset):
        return {"exclude": ["sumon"]}


class ListProfile(_Wrapped):
    def generation_profile(self, ruleset):
        return ["summon"]


class MisspeltKey(_Wrapped):
    def generation_profile(self, ruleset):
        return {"exlude": ["summon"]}


class PartialLifo(_Lifo):
    """Last in, first out (fails mw.queue-fifo), declaring that it cannot play defeats, moves or Summons, skipping
    any scenario that has one anyway, and remembering every scenario it was handed (``played``, a class list)."""

    played: list = []

    def generation_profile(self, ruleset):
        return {"exclude": list(EXCLUDED)}

    def run(self, scenario, chooser):
        PartialLifo.played.append(scenario)
        if outside_profile(scenario):
            raise Skipped("defeats, moves and Summons are not implemented")
        return self.inner.run(scenario, chooser)


def outside_profile(scenario) -> bool:
    text = json.dumps({k: v for k, v in scenario.items() if k not in ("options", "choices")})
    return any(word in text for word in EXCLUDED_WORDS)


class SlowToSay(_Wrapped):
    """Takes 1.5 s to say what it is (its handshake)."""

    @property
    def info(self):
        import time

        time.sleep(1.5)
        return self.inner.info

