"""Redemption (REG glossary, Triggered Ability), permissive: the reference Game with the orders it settles by
reading TA.4-TA.6 left to an oracle.

Branch points (``kind``; answer 0 is the reference engine's reading under the scenario's options):

* ``batch-order``: the activation order of triggers free together (TA.4, TA.5);
* ``fresh-placement``: triggers that arose while a triggered ability resolved activate after every trigger already
  pending, or ahead of them (TA.6), when both kinds are pending.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from reference_engine.engines.permissive import Oracle, permuted
from reference_engine.engines.redemption.engine import Game


class PermissiveGame(Game):
    def __init__(self, scenario: dict[str, Any], chooser, oracle: Oracle):
        super().__init__(scenario, chooser)
        self.oracle = oracle

    def order_batch(self, triggers: list[str]) -> deque[str]:
        preferred = list(super().order_batch(triggers))
        return deque(permuted(self.oracle, "batch-order", f"activation order of {', '.join(triggers)}", triggers,
                              preferred))

    def next_trigger(self) -> str | None:
        after = self.options["trigger_during_resolution"] == "after-pending"
        if self.fresh and any(self.batches) and self.oracle.pick(
                "fresh-placement", f"{', '.join(self.fresh)}, arisen during a resolution, activate "
                f"{'after' if after else 'before'} the pending triggers, or {'before' if after else 'after'}", 2):
            after = not after
        if after:
            # Fresh triggers wait until no batch has a trigger left (with one batch, the reference's test).
            if self.fresh and not any(self.batches):
                self.batches = [self.order_batch(self.fresh)]
                self.fresh = []
        elif self.fresh:
            self.batches.append(self.order_batch(self.fresh))
            self.fresh = []
        while self.batches and not self.batches[-1]:
            self.batches.pop()
        return self.batches[-1].popleft() if self.batches else None
