"""Redemption mutants: the reference engine (reference_engine/engines/redemption/engine.py) with one fault each.

Each class overrides one step of :class:`reference_engine.engines.redemption.engine.Game`; its docstring names the fault and
the rule key that must catch it.
"""

from __future__ import annotations

from reference_engine.engines.mutants import mutant
from reference_engine.engines.redemption.engine import EDITIONS, PRESENT, RULESET, Game, RedemptionEngine


class InactivePlayerFirstGame(Game):
    """Fault: simultaneous triggers are taken inactive players first (turn order from the player after the active
    one), the active player last, against TA.4. Caught by ``red.active-player-first``."""

    def seats(self) -> list[str]:
        seats = super().seats()
        return seats[1:] + seats[:1]


class CutsInGame(Game):
    """Fault: a triggered ability activates as soon as the primitive action that triggered it is done, inserting itself
    between the steps of the ability or action being carried out, against TA.6. Caught by ``red.no-cutting-in``."""

    def perform(self, effect, cause, source, player) -> None:
        for action in effect:
            super().perform([action], cause, source, player)
            self.activate_pending()


class DropsMandatoryGame(Game):
    """Fault: a mandatory trigger whose card has left play and the set-aside area is dropped when its turn comes, as if
    it were optional, against TA.3. Caught by ``red.mandatory-persists``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        if not self.ability(trigger).get("optional") and self.zones.get(trigger["source"]) not in PRESENT:
            self.record.add("removed", trigger=trigger_id, reason="source_gone")
            return
        super().take_turn(trigger_id)


class OptionalAfterDiscardGame(Game):
    """Fault: an optional trigger activates even though its card was discarded (it is no longer in play or the
    set-aside area), against TA.3. Caught by ``red.optional-needs-card``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        if self.ability(trigger).get("optional") and self.zones.get(trigger["source"]) not in PRESENT:
            if self.ask_optional(trigger):
                self.resolve(trigger)
            else:
                self.record.add("removed", trigger=trigger_id, reason="declined")
            return
        super().take_turn(trigger_id)


MUTANTS = tuple(
    mutant(name, RedemptionEngine, game, key, RULESET, EDITIONS, fault=fault)
    for name, game, key, fault in (
        ("redemption-inactive-player-first", InactivePlayerFirstGame, "red.active-player-first",
         "inactive players' simultaneous triggers are resolved before the active player's"),
        ("redemption-cuts-in", CutsInGame, "red.no-cutting-in", "a triggered ability cuts in between other abilities"),
        ("redemption-drops-mandatory", DropsMandatoryGame, "red.mandatory-persists",
         "a mandatory trigger is dropped when its card leaves play"),
        ("redemption-optional-after-discard", OptionalAfterDiscardGame, "red.optional-needs-card",
         "an optional trigger activates after its card was discarded"),
    )
)
