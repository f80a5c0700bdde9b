"""Redemption mutants: the reference engine (reference_engine/redemption/engine.py) with one fault each.

Each class overrides one step of :class:`reference_engine.redemption.engine.Game`; its docstring names the fault and
the rule key that must catch it.
"""

from __future__ import annotations

from conformance.adapters.base import EngineInfo
from reference_engine.mutants import Mutant
from reference_engine.redemption.engine import EDITIONS, PRESENT, RULESET, Game, RedemptionEngine


def _engine(name: str, game: type[Game]) -> type[RedemptionEngine]:
    class Faulty(RedemptionEngine):
        __doc__ = game.__doc__
        game_class = game

        @property
        def info(self) -> EngineInfo:
            return EngineInfo(name=f"mutant:{name}", version="0", rulesets={RULESET: list(EDITIONS)})

    Faulty.__name__ = Faulty.__qualname__ = game.__name__.replace("Game", "Engine")
    return Faulty


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


InactivePlayerFirstEngine = _engine("redemption-inactive-player-first", InactivePlayerFirstGame)
CutsInEngine = _engine("redemption-cuts-in", CutsInGame)
DropsMandatoryEngine = _engine("redemption-drops-mandatory", DropsMandatoryGame)
OptionalAfterDiscardEngine = _engine("redemption-optional-after-discard", OptionalAfterDiscardGame)

MUTANTS = (
    Mutant("redemption-inactive-player-first", RULESET, EDITIONS[0], InactivePlayerFirstEngine,
           "red.active-player-first", "inactive players' simultaneous triggers are resolved before the active player's"),
    Mutant("redemption-cuts-in", RULESET, EDITIONS[0], CutsInEngine,
           "red.no-cutting-in", "a triggered ability cuts in between other abilities"),
    Mutant("redemption-drops-mandatory", RULESET, EDITIONS[0], DropsMandatoryEngine,
           "red.mandatory-persists", "a mandatory trigger is dropped when its card leaves play"),
    Mutant("redemption-optional-after-discard", RULESET, EDITIONS[0], OptionalAfterDiscardEngine,
           "red.optional-needs-card", "an optional trigger activates after its card was discarded"),
)
