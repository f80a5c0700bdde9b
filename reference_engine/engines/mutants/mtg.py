"""MTG mutants: the reference engine (reference_engine/engines/mtg/engine.py) with one fault each, and the rule key that
must catch it."""

from __future__ import annotations

from reference_engine.engines.mtg.engine import EDITIONS, RULESET, Game, MtgEngine
from reference_engine.engines.mutants import Mutant, faulty_engine, mutant


def _engine(name: str, game: type[Game], doc: str = "") -> type[MtgEngine]:
    return faulty_engine(name, MtgEngine, game, RULESET, EDITIONS)


class ApnapReversedGame(Game):
    """Puts simultaneous triggers on the stack in reversed APNAP order (the non-active players' first), against
    603.3b and 101.4; caught by mtg.apnap-order."""

    def apnap(self) -> list[str]:
        return list(reversed(super().apnap()))


class SinglePassGame(Game):
    """Uses the pre-April-2021 single-pass 603.3b under the 2026-02-27 edition: abilities that trigger on another
    ability triggering are not held back for a second pass; caught by mtg.trigger-on-trigger-last."""

    def passes(self) -> list:
        return [lambda t: True]


class NoInterveningRecheckGame(Game):
    """Checks an intervening 'if' clause only when the ability triggers, never again on resolution (603.4,
    608.2a); caught by mtg.intervening-if."""

    def intervening_if_holds_on_resolution(self, trigger: str) -> bool:
        return True


class PushMidResolutionGame(Game):
    """Puts an ability that triggers during a resolution on the stack at once, in the middle of that resolution,
    instead of waiting until a player would receive priority (603.3, 117.2a); caught by mtg.stack-at-priority."""

    def on_triggered(self, trigger: str) -> None:
        if self.resolving is not None:
            self.push(trigger)
        else:
            super().on_triggered(trigger)


class NoLookBackGame(Game):
    """Judges leaves-the-battlefield abilities on the game after the event, so a creature dying together with
    others does not see them die (603.10a); caught by mtg.look-back."""

    LOOK_BACK = False


class StateRetriggersGame(Game):
    """Lets a state trigger trigger again while an instance of it is still on the stack, whenever another ability
    resolves (603.8 waits until the instance has left the stack); caught by mtg.state-trigger."""

    def state_trigger_ready(self, key: tuple[str, str]) -> bool:
        live = self.live_state.get(key)
        return live is None or (live in self.stack and self.resolving not in (None, live))


class OptionalOnTriggerGame(Game):
    """Asks whether to use an optional ability when it triggers, and never puts a declined one on the stack
    (603.5 puts it on the stack and leaves the choice to resolution); caught by mtg.optional-on-resolution."""

    def accept_trigger(self, trigger: str) -> bool:
        if not self.specs[trigger].get("optional"):
            return True
        if self.ask_optional(self.instances[trigger]):
            self.specs[trigger] = {k: v for k, v in self.specs[trigger].items() if k != "optional"}
            return True
        self.record.add("removed", trigger=trigger, reason="declined")
        return False


def _mutant(name: str, game: type[Game], key: str, edition: str = EDITIONS[0]) -> Mutant:
    return mutant(name, MtgEngine, game, key, RULESET, EDITIONS, edition)


MUTANTS = (
    _mutant("mtg-apnap-reversed", ApnapReversedGame, "mtg.apnap-order"),
    _mutant("mtg-single-pass-603-3b", SinglePassGame, "mtg.trigger-on-trigger-last"),
    _mutant("mtg-no-intervening-recheck", NoInterveningRecheckGame, "mtg.intervening-if"),
    _mutant("mtg-push-mid-resolution", PushMidResolutionGame, "mtg.stack-at-priority"),
    _mutant("mtg-no-look-back", NoLookBackGame, "mtg.look-back"),
    _mutant("mtg-state-retriggers", StateRetriggersGame, "mtg.state-trigger"),
    _mutant("mtg-optional-on-trigger", OptionalOnTriggerGame, "mtg.optional-on-resolution"),
)
