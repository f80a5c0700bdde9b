"""MTG faulty engines for the wider vocabulary (issue 12, item 1: targets that are players, trigger filters, zone changes
anywhere, batched and additional triggers, once each turn, durations across turns, spells on the stack): the reference
engine with one fault each. Registered, with the rule key that must catch each, in faulty.py's ``MUTANTS``."""

from __future__ import annotations

from reference_engine.mtg.engines.reference import Game
from reference_engine.mtg.engines.rules import Catalog


class DamageOffTheBattlefieldGame(Game):
    """Deals an effect's damage to a permanent even after it has left the battlefield (608.2: an instruction that
    refers to an object no longer there does nothing to it; phase.rs has this bug, docs/engines/phase.md); caught
    by mtg.resolution-effect."""

    def perform(self, effect, ctx) -> None:
        for action in effect:
            gone = action["do"] == "damage" and "object" in action and \
                self.state.zones.get(action["object"]) not in (None, "field")
            if gone and not action.get("prevented"):
                self.happen([{"type": "damage", "subject": action.get("source", ctx.source),
                              "amount": action["amount"], "target": action["object"]}], ctx.cause)
            else:
                super().perform([action], ctx)


class DepartedTargetKeptGame(Game):
    """Keeps a player who has left the game a legal target, as the ability is put on the stack and on resolution
    (800.4a, 603.3d, 608.2b: a player no longer in the game cannot be targeted); caught by mtg.no-legal-target."""

    def target_legal(self, spec, target) -> bool:
        if target is not None and target in spec["target"].get("players", ()):
            return target in self.state.life
        return super().target_legal(spec, target)


class _ActivePlayerIsYouCatalog(Catalog):
    def filters_match(self, pattern, event, you, state) -> bool:
        return super().filters_match(pattern, event, self.active_player, state)


class ActivePlayerIsYouGame(Game):
    """Reads "you" and "an opponent" in trigger filters ("a creature you control", "you gain life") relative to the
    active player instead of the ability's controller (603.3a: a triggered ability is controlled by whoever
    controlled its source as it triggered); caught by mtg.triggers-when-satisfied."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _ActivePlayerIsYouCatalog(scenario)


class _IfYouIsSourceControllerCatalog(Catalog):
    def holds(self, condition, state, source, you=None) -> bool:
        return super().holds(condition, state, source)


class IfYouIsSourceControllerGame(Game):
    """Reads "you" in an intervening "if" ("if you have 40 or more life") as whoever controls the ability's source
    when the condition is checked, instead of the ability's controller, fixed as it triggered (603.3a, 603.4;
    603.7d-e for a delayed ability): an ability whose source changed control (or left the battlefield for its
    owner's graveyard) between triggering and resolving is removed on resolution, or kept, on the wrong player's
    life (the bug Forge had with Felidar Sovereign); caught by mtg.intervening-if."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _IfYouIsSourceControllerCatalog(scenario)
        self.catalog.options = self.options


class _ZoneChangeOutsideTheBattlefieldCatalog(Catalog):
    def pattern_matches(self, pattern, event, source) -> bool:
        if pattern["event"] == "zone_change" and event["type"] in ("enter", "leave"):
            return False
        return super().pattern_matches(pattern, event, source)


class ZoneChangeOutsideTheBattlefieldGame(Game):
    """Hears an ability triggering on any zone change ("put into exile from anywhere", "put into a hand", "leaves a
    graveyard") only for moves between zones other than the battlefield: a permanent exiled from the battlefield, or a
    card put onto the battlefield from a graveyard, triggers nothing (603.6, 603.10a); caught by mtg.look-back."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _ZoneChangeOutsideTheBattlefieldCatalog(scenario)


class EachOfOneOrMoreGame(Game):
    """Triggers a "whenever one or more ..." ability once for each matching occurrence of one event instead of once
    for the event (603.2c); caught by mtg.triggers-when-satisfied."""

    def one_or_more(self, hits):
        return list(hits)


class NoAdditionalTriggersGame(Game):
    """Ignores effects that make abilities trigger additional times (603.2d): every ability triggers once;
    caught by mtg.triggers-when-satisfied."""

    def additional_times(self, hit, before) -> int:
        return 0


class OnceEachTurnIgnoredGame(Game):
    """Lets a "do this only once each turn" ability trigger again after its controller took the action this turn
    (603.2h); caught by mtg.triggers-when-satisfied."""

    def may_trigger_this_turn(self, source, ability) -> bool:
        return True


class OnceTakenWhenPerformedGame(Game):
    """Counts a "do this only once each turn" action as taken only once an instance's effect does something (the
    reading of option once_each_turn_taken=when-performed), under the default unless-declined reading, where an
    instance that begins resolving takes it even if its effect changes nothing (603.2h); caught by
    mtg.triggers-when-satisfied."""

    def take_action(self, trigger, used) -> None:
        keep = self.options
        self.options = {**keep, "once_each_turn_taken": "when-performed"}
        try:
            super().take_action(trigger, used)
        finally:
            self.options = keep


class NoResolvedEventGame(Game):
    """Never records an ability resolving as an event, so abilities that trigger on an ability resolving never
    trigger (603.2); caught by mtg.triggers-when-satisfied."""

    def after_resolution(self, trigger) -> None:
        return None


class ThisTurnOutlivesTheTurnGame(Game):
    """Lets a delayed triggered ability lasting "this turn" (or "until end of turn") outlive its turn when the script
    goes on to the next one, so it still triggers then (603.7b: it triggers on each occurrence until its duration
    ends); caught by mtg.delayed-trigger."""

    def end_turn(self) -> None:
        for d in self.delayed:
            if d.alive and d.duration == "next_turn" and d.born + 1 == self.turn:
                self.end_one(d, "duration")


class SpellTargetUncheckedGame(Game):
    """Lets a spell whose target has become illegal resolve anyway (608.2b: it does not resolve and goes to its
    owner's graveyard); caught by mtg.spell-resolution."""

    def target_legal(self, spec, target) -> bool:
        if "effect" in spec and "trigger" not in spec:  # a spell's text, not an ability
            return target is not None
        return super().target_legal(spec, target)


class SpellResolvesAtOnceGame(Game):
    """Resolves a spell the moment it is cast, before the abilities that triggered on its casting and without any
    player receiving priority (405.1, 405.5: it waits on the stack under them); caught by mtg.spell-resolution."""

    def cast(self, card, ctx) -> None:
        super().cast(card, ctx)
        if self.stack and self.stack[-1] == f"spell:{card}":
            self.resolve_spell(self.stack[-1])


# -- Issue 22, item 1: new words --------------------------------------------------------------------------------------

class _OwnerIsControllerCatalog(Catalog):
    def filters_match(self, pattern, event, you, state) -> bool:
        if "owner" in pattern:
            pattern = {**{k: v for k, v in pattern.items() if k != "owner"}, "controller": pattern["owner"]}
        return super().filters_match(pattern, event, you, state)


class OwnerIsControllerGame(Game):
    """Reads an ownership filter ("a creature you own dies", "a card is put into your graveyard") as a control filter
    ("a creature you control dies"), so a permanent dying under another player's control is matched against that
    player (108.3: its owner is who it belonged to at the start of the game, whoever controls it); caught by
    mtg.look-back."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _OwnerIsControllerCatalog(scenario)


class ThatManyIsPrintedGame(Game):
    """Reads "that much damage" / "gain that much life" (an amount taken from the trigger event: the damage dealt, the
    life gained or lost) as the instruction's printed ``amount``; caught by mtg.resolution-effect."""

    def effect_amount(self, action, ctx):
        return action["amount"]


class TriggersOnceReadAsDoOnceGame(Game):
    """Reads "this ability triggers only once each turn" as 603.2h's "do this only once each turn": the ability
    triggers again until an instance of it begins resolving (unless declined), for every occurrence before that, and
    the count is kept for the source across its zone changes, so a new object (400.7) does not trigger again that
    turn; caught by mtg.triggers-when-satisfied."""

    def once_per_object(self, hit, before, times) -> int:
        return times

    def may_trigger_this_turn(self, source, ability) -> bool:
        if ability.get("triggers_once_each_turn"):
            return (source, ability["id"]) not in self.used_this_turn
        return super().may_trigger_this_turn(source, ability)

    def take_action(self, trigger, used) -> None:
        entry = self.instances[trigger]
        if self.specs[trigger].get("triggers_once_each_turn") and used and "delayed" not in entry:
            self.used_this_turn.add((entry["source"], entry["ability"]))
        super().take_action(trigger, used)
