"""MTG faulty engines for the shapes issue 30 found the stream never built (reference_engine/mtg/generator/situated.py):
the reference engine with one fault each, the fault an author would plausibly write for that shape. Registered, with
the rule key that must catch each, in faulty.py's ``MUTANTS``."""

from __future__ import annotations

from reference_engine.mtg.engines.reference import Game
from reference_engine.mtg.engines.rules import looks_back_at


class DeathsHeardOnTheBattlefieldOnlyGame(Game):
    """Looks for the abilities a creature dying triggers among permanents only (the dying one included, by looking
    back), so a card in a graveyard whose ability works from there never hears a creature die (603.2, 603.10a;
    ``active_in``; the judge weighs a death, a leaving event, by its look-back rule); caught by mtg.look-back."""

    def triggered_by(self, group, before):
        return [hit for hit in super().triggered_by(group, before)
                if hit[0]["type"] != "leave" or before.zones.get(hit[1]) == "field"]


class OwnDeathSeenFromTheGraveyardGame(Game):
    """Judges an ability of a dying permanent that works from a graveyard on where its card ends up, not on the
    battlefield it is leaving, so "when this dies" working from the graveyard only triggers (603.10a: a
    leaves-the-battlefield ability looks back in time, when that ability did not work); caught by
    mtg.look-back."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self._from_graveyard = {id(a["trigger"]) for obj in scenario["objects"] for a in obj.get("abilities", ())
                                if "graveyard" in a.get("active_in", ())}

    def triggered_by(self, group, before):
        def look_back(trigger, event):
            return looks_back_at(trigger, event) and id(trigger) not in self._from_graveyard
        return self.catalog.triggered_abilities(group, before, self.state, look_back=look_back,
                                                condition_looks_back=self.condition_looks_back)


class HiddenZoneLeavesUnheardGame(Game):
    """Checks no trigger for a card leaving a hand (a hidden zone, "nothing there is in the game yet"), so a
    discard triggers nothing (603.2: any event matching the trigger condition, wherever the card was); caught by
    mtg.triggers-when-satisfied."""

    def triggered_by(self, group, before):
        return [hit for hit in super().triggered_by(group, before)
                if not (hit[0]["type"] == "move" and hit[0].get("from") == "hand")]


class EachCardLeavingAGraveyardGame(Game):
    """Triggers a "whenever one or more cards leave a graveyard" ability once per card leaving (the batching of
    603.2c applied to the battlefield's zone changes only; leaving a graveyard looks back, 603.10a, and the judge
    weighs it by its look-back rule); caught by mtg.look-back."""

    def one_or_more(self, hits):
        batched = [hit for hit in hits if not (hit[0]["type"] == "move" and hit[2]["trigger"].get("batch"))]
        kept = super().one_or_more(batched)
        return kept + [hit for hit in hits if hit not in batched]


class OnceTakenAsResolutionEndsGame(Game):
    """Counts a "do this only once each turn" action as taken only once the instance has finished resolving, so an
    ability whose own effect causes its trigger event again triggers a second time from inside its resolution
    (603.2h: it is taken as the instance begins resolving, under the default once_each_turn_taken=unless-declined;
    the event being a death, the judge weighs it by its look-back rule); caught by mtg.look-back."""

    def take_action(self, trigger, used) -> None:
        self._late = (trigger, used)

    def off_stack(self, trigger) -> None:
        late = getattr(self, "_late", None)
        if late is not None and late[0] == trigger:
            self._late = None
            super().take_action(*late)
        super().off_stack(trigger)


class TargetCheckStandsForIfGame(Game):
    """On resolution, checks a targeted ability's target and skips its intervening 'if' (the targeted path of the
    resolution code returns early), so an ability whose condition no longer holds resolves while its target is still
    legal (603.4: the condition is checked again on resolution; 608.2b's target check is another); caught by
    mtg.intervening-if."""

    def intervening_if_holds_on_resolution(self, trigger: str) -> bool:
        return "target" in self.specs[trigger] or super().intervening_if_holds_on_resolution(trigger)


class CastTriggersBelowTheSpellGame(Game):
    """Puts the abilities that casting a spell triggered on the stack as they trigger, before the spell itself goes
    there, so the spell ends up above them and resolves first (601.2i: the spell is cast, on the stack, before a
    player would receive priority and its abilities go on the stack above it, 603.3, 117.5, 405.5); caught by
    mtg.stack-at-priority (abilities go on the stack only as a player would receive priority)."""

    def cast(self, card: str, ctx) -> None:
        height = len(self.stack)
        super().cast(card, ctx)
        if len(self.stack) > height and self.waiting:
            spell = self.stack.pop()
            self.put_triggers_on_stack()
            self.stack.append(spell)


class LookBackToTheEffectsStartGame(Game):
    """Looks back, for an event of an effect (a scripted action's, a resolving ability's or spell's), to the game as
    that effect began, not to the game just before that event (one copy per effect, not one per event), so an object
    that came onto the battlefield earlier in the same effect and leaves it is not seen where it was (603.10a: the
    game immediately before the event); caught by mtg.look-back."""

    def perform(self, effect, ctx) -> None:
        outermost = getattr(self, "effect_start", None) is None
        if outermost:
            self.effect_start = self.state.copy()
        try:
            super().perform(effect, ctx)
        finally:
            if outermost:
                self.effect_start = None

    def triggered_by(self, group, before):
        start = getattr(self, "effect_start", None)
        return super().triggered_by(group, before if start is None else start)
