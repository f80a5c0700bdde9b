"""Redemption (REG glossary, Triggered Ability), permissive: the reference Game with the orders it settles by
reading TA.4-TA.6 left to an oracle.

Branch points (``kind``; answer 0 is the reference engine's reading under the scenario's options):

* ``batch-order``: which of the triggers free together activates next (TA.4, TA.5), asked each time one is
  taken, so the activations already made are in the trace when the next is chosen (prefix pruning sees them);
* ``fresh-placement``: triggers that arose while a triggered ability resolved activate after every trigger already
  pending, or ahead of them (TA.6), when both kinds are pending;
* ``optional-choice-scope``: a player's second optional trigger among those free together gets a choice of its
  own, or the one the player made for the first (TA.5 speaks of one choice about all of a player's abilities);
* ``optional-choice-time``: an optional trigger's holder chooses whether to use it as its turn comes, or as it
  arises (when it joins the triggers free together; a declined one is removed then), asked where its holder may
  decline it and another trigger is free with it (TA.5 says only that the players choose, in turn order);
* ``optional-after-phase``: an optional trigger still pending when its phase ends keeps waiting, or lapses (TA.3
  says "at least until the end of the current phase" of mandatory ones only);
* ``reading:<option>``: every documented reading of text the glossary leaves silent, decided once per play where it
  can matter (:class:`~reference_engine.common.permissive.Readings`): ``control_change_holder`` when a card's
  ability triggers on the change of its own control, ``mandatory_after_phase`` when a phase ends with a mandatory
  trigger pending whose card is gone. (``trigger_during_resolution`` is covered by ``fresh-placement``.)
"""

from __future__ import annotations

from collections import deque
from typing import Any

from reference_engine.common.permissive import Oracle, Readings
from reference_engine.kernel.branching import choose
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.redemption.engines.reference import PRESENT, Game

# The readings the reference engine can play for each option (reference_engine/redemption/judge/options.py).
READINGS = {
    "control_change_holder": ("new-controller", "old-controller"),
    "mandatory_after_phase": ("lapse", "persist"),
}


class _OpenBatch(deque):
    """A batch of triggers free together whose next activation is a branch point (answer 0: the reference's)."""

    def __init__(self, preferred, oracle: Oracle, serial: int = 0):
        super().__init__(preferred)
        self.oracle = oracle
        self.serial = serial  # which batch of the play: a player's optional triggers free together share it

    def popleft(self) -> str:
        if len(self) > 1:
            k = choose(self.oracle, "batch-order", range(len(self)), f"which of {', '.join(self)}, free together, "
                       "activates next")
            if k:
                item = self[k]
                del self[k]
                return item
        return super().popleft()


class PermissiveGame(Game):
    # The general branch kind that stands for an option with no ``reading:`` branch of its own (the editors' diff
    # aims its scenarios at it).
    option_branches = {"trigger_during_resolution": ("fresh-placement",)}

    def __init__(self, scenario: dict[str, Any], chooser, oracle: Oracle):
        super().__init__(scenario, chooser)
        self.oracle = oracle
        self.options = Readings(self.options, oracle, READINGS, on_read=("control_change_holder",))
        self._batches_made = 0
        self._taken_from = 0  # the batch of the trigger taking its turn
        self._answered: dict[tuple[str, int], bool] = {}  # (player, batch) -> their first optional answer in it
        self._early: dict[str, bool] = {}  # optional trigger -> its holder's answer, asked as it arose

    def lapse_at_phase_end(self) -> None:
        gone = [t for t in self.pending() if not self.ability(self.instances[t]).get("optional")
                and self.zones.get(self.instances[t]["source"]) not in PRESENT]
        if gone:
            self.options.decide("mandatory_after_phase", f"mandatory {', '.join(gone)} pending, its card gone")
        super().lapse_at_phase_end()
        optional = [t for t in self.pending() if self.ability(self.instances[t]).get("optional")]
        if optional and choose(self.oracle, "optional-after-phase", (False, True), f"optional {', '.join(optional)} "
                               "pending at the end of the phase: keeps waiting, or lapses"):
            self.drop_all(optional, "expired")

    def order_batch(self, triggers: list[str]) -> deque[str]:
        self._batches_made += 1
        batch = _OpenBatch(super().order_batch(triggers), self.oracle, self._batches_made)
        for trigger_id in list(batch):
            trigger = self.instances[trigger_id]
            if len(batch) < 2 or not self.ability(trigger).get("optional") or not self._may_decline(trigger):
                continue  # alone, or used either way: asked early or late, it activates or leaves at the same place
            if choose(self.oracle, "optional-choice-time", (False, True), f"{trigger['controller']}'s choice for "
                      f"optional {trigger_id}: as its turn comes, or as it arises"):
                self._early[trigger_id] = Game.ask_optional(self, trigger)
                if not self._early[trigger_id]:
                    batch.remove(trigger_id)
                    self.record.add("removed", trigger=trigger_id, reason="declined")
        return batch

    def _may_decline(self, trigger: dict[str, Any]) -> bool:
        """Whether its holder may decline ``trigger``: with the scenario's answers, only where they decline it; a
        chooser branching on the players' answers may decline any."""
        return not isinstance(self.chooser, ScenarioChooser) or not self.chooser.optional(trigger["controller"], trigger)

    def ask_optional(self, trigger: dict[str, Any]) -> bool:
        if trigger["id"] in self._early:
            return self._early[trigger["id"]]  # chosen as it arose
        player = trigger["controller"]
        key = (player, self._taken_from)
        if key in self._answered and choose(
                self.oracle, "optional-choice-scope", (False, True), f"{player}'s optional {trigger['id']}: a choice "
                f"of its own, or the one {player} made for the optional triggers free with it"):
            answer = self._answered[key]
            self.record.add("choice", player=player, decision="optional", among=[trigger["id"]], chosen=answer)
            return answer
        answer = super().ask_optional(trigger)
        self._answered.setdefault(key, answer)
        return answer

    def next_trigger(self) -> str | None:
        after = self.options["trigger_during_resolution"] == "after-pending"
        if self.fresh and any(self.batches) and choose(
                self.oracle, "fresh-placement", (False, True), f"{', '.join(self.fresh)}, arisen during a "
                f"resolution, activate {'after' if after else 'before'} the pending triggers, or "
                f"{'before' if after else 'after'}"):
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
        if not self.batches:
            return None
        self._taken_from = getattr(self.batches[-1], "serial", 0)
        return self.batches[-1].popleft()
