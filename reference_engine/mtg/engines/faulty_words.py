"""MTG faulty engines for the words of issue 31 (spells creating delayed triggered abilities, the object dealt damage, one
damage event with several occurrences, creating tokens, activated abilities' costs, combat damage, "that player"): the reference
engine with one fault each. Registered, with the rule key that must catch each, in faulty.py's ``MUTANTS``."""

from __future__ import annotations

from reference_engine.mtg.engines.reference import Game
from reference_engine.mtg.engines.rules import BATTLEFIELD, UNCREATED, Catalog


class SpellDelayedDroppedGame(Game):
    """Creates delayed triggered abilities only for resolving abilities, as if only an ability's effect could create
    one: a spell's "when ... this turn" is dropped (603.7a, 603.7d: a resolving spell creates them too, the spell
    their source, its controller theirs); caught by mtg.delayed-trigger."""

    @staticmethod
    def spell_creates(do, ctx) -> bool:
        return False


class _DealtReadAsDealsCatalog(Catalog):
    def candidates(self, event):
        if event["type"] != "damage":
            return super().candidates(event)
        return [(source, ability) for (source, _), ability in self.abilities.items()
                if ability["trigger"]["event"] != "state"]

    def pattern_matches(self, pattern, event, source) -> bool:
        return super().pattern_matches(_as_deals(pattern), event, source)

    def filters_match(self, pattern, event, you, state) -> bool:
        return super().filters_match(_as_deals(pattern), event, you, state)


def _as_deals(pattern):
    return dict(pattern, event="damage") if pattern["event"] == "dealt_damage" else pattern


class DealtReadAsDealsGame(Game):
    """Reads "whenever this is dealt damage" and "whenever a creature you control is dealt damage" as the damage's
    source ("whenever this deals damage", "a creature you control deals damage"): the subject and the filters of a
    ``dealt_damage`` trigger are matched against the source, not the permanent dealt damage (120.3, 603.2); caught by
    mtg.triggers-when-satisfied."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _DealtReadAsDealsCatalog(scenario)
        self.catalog.options = self.options


class DamageEventOnceGame(Game):
    """Reads one damage event as one occurrence: an ability triggering on damage dealt or on a permanent being dealt
    damage triggers once for the whole event (on its first matching occurrence), as if it said "one or more", though
    one spell damaging each creature, or combat damage from several creatures, has one occurrence per hit (603.2c);
    caught by mtg.triggers-when-satisfied."""

    def one_or_more(self, hits):
        seen, out = set(), []
        for hit in hits:
            _, source, ability, _ = hit
            if ability["trigger"]["event"] in ("damage", "dealt_damage"):
                if (source, ability["id"]) in seen:
                    continue
                seen.add((source, ability["id"]))
            out.append(hit)
        return super().one_or_more(out)


class TokenEntersSilentlyGame(Game):
    """Creates a token by putting it straight onto the battlefield, recorded, but not as an event abilities are
    checked against: no enters-the-battlefield ability triggers on it, not even its own (603.6a: a token created
    enters the battlefield, and every permanent there, the newcomer included, is checked for abilities that trigger on
    it); caught by mtg.triggers-when-satisfied."""

    def create_tokens(self, tokens, ctx) -> None:
        made = []
        for token in self.creatable(tokens):
            entry, _ = self.record.event("enter", ctx.cause, subject=token, **{"from": UNCREATED, "to": BATTLEFIELD})
            self.state.apply(entry)
            made.append(entry)
        for entry in made if len(made) > 1 else ():
            entry["group"] = made[0]["id"]
        if self.resolving is not None:
            self.resolution_events.extend(made)


class CostTriggersBelowGame(Game):
    """Puts an activated ability on the stack only once the abilities its cost triggered have gone there, as if the
    cost were paid before the ability was activated (a sacrificed creature's "when this dies" resolving after the
    ability it paid for): the ability ends up above them and resolves first, though 602.2a puts it on the stack before
    its cost is paid (601.2h), so what the payment triggers goes on above it (603.3) and resolves first (405.5);
    caught by mtg.stack-lifo."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.unstacked: list[str] = []

    def stack_activated(self, activation: str) -> None:
        self.unstacked.append(activation)

    def before_priority(self) -> None:
        super().before_priority()
        self.stack.extend(self.unstacked)
        self.unstacked.clear()


class _CombatIgnoredCatalog(Catalog):
    @staticmethod
    def pattern_matches(pattern, event, source) -> bool:
        return Catalog.pattern_matches({k: v for k, v in pattern.items() if k != "combat"}, event, source)


class CombatReadAsAnyDamageGame(Game):
    """Reads "whenever this deals combat damage to a player" as "whenever this deals damage to a player" (and
    "noncombat damage" as any damage): a trigger's ``combat`` filter is ignored, so an ability's or a spell's damage
    triggers a combat-damage ability (XMage issue 4026, Arcbound Slith), though combat damage is only the damage the
    attacking and blocking creatures deal in the combat damage step (120.2a-b, 510.2); caught by
    mtg.triggers-when-satisfied."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.catalog = _CombatIgnoredCatalog(scenario)
        self.catalog.options = self.options


class ThatPlayerUnresolvedGame(Game):
    """Finds no player for "that player" / "them": an ability's damage or life change for the player of its trigger
    event (the player who drew, the owner of the graveyard a card went to) does nothing, as if the event had no
    player (phase.rs issues 2869, Razorkin Needlehead, and 6370, Curse of Fool's Wisdom), though the trigger event
    names one (603.2, 608.2); caught by mtg.resolution-effect."""

    def that_player(self, trigger):
        return None
