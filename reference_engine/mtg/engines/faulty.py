"""MTG mutants: the reference engine (reference_engine/mtg/engines/reference.py) with one fault each, and the rule key that
must catch it."""

from __future__ import annotations

from dataclasses import replace

from reference_engine.mtg.engines.reference import EDITIONS, RULESET, Context, Game, MtgEngine
from reference_engine.mtg.engines.rules import BATTLEFIELD, looks_back, looks_back_at
from reference_engine.mtg.engines.faulty_vocabulary import (
    DamageOffTheBattlefieldGame, DepartedTargetKeptGame, ActivePlayerIsYouGame,
    ZoneChangeOutsideTheBattlefieldGame, EachOfOneOrMoreGame, NoAdditionalTriggersGame, OnceEachTurnIgnoredGame,
    OnceTakenWhenPerformedGame, NoResolvedEventGame, ThisTurnOutlivesTheTurnGame, SpellTargetUncheckedGame,
    SpellResolvesAtOnceGame, OwnerIsControllerGame, ThatManyIsPrintedGame, TriggersOnceReadAsDoOnceGame,
    IfYouIsSourceControllerGame)
from reference_engine.mtg.engines.faulty_words import (
    CombatReadAsAnyDamageGame, CostTriggersBelowGame, DamageEventOnceGame, DealtReadAsDealsGame, SpellDelayedDroppedGame,
    ThatPlayerUnresolvedGame, TokenEntersSilentlyGame)
from reference_engine.common.faulty import Mutant, faulty_engine, mutant
from reference_engine.mtg.engines.faulty_situated import (
    CastTriggersBelowTheSpellGame, DeathsHeardOnTheBattlefieldOnlyGame, EachCardLeavingAGraveyardGame,
    HiddenZoneLeavesUnheardGame, LookBackToTheEffectsStartGame, OnceTakenAsResolutionEndsGame,
    OwnDeathSeenFromTheGraveyardGame, TargetCheckStandsForIfGame,
)


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



class LateSbaGame(Game):
    """Puts the waiting triggered abilities on the stack before performing state-based actions, then checks them
    (704.3 performs every applicable state-based action first, and puts triggers on only once none is performed);
    caught by mtg.sba-loop."""

    def before_priority(self) -> None:
        while True:
            if self.waiting:
                self.put_triggers_on_stack()
                continue
            if not self.perform_state_based_actions():
                return


class SbaOnlyOnEmptyStackGame(Game):
    """Lazy state-based actions: checks them only when the stack is empty, not each time a player would receive
    priority (117.5, 704.3), so a creature with lethal damage survives while abilities are still on the stack;
    caught by mtg.sba-loop."""

    def perform_state_based_actions(self) -> bool:
        if self.stack:
            return False
        return super().perform_state_based_actions()


class SplitBatchGame(Game):
    """Splits one 603.3b batch with an extra state-based actions check: the abilities that were waiting before
    state-based actions were performed go on the stack alone, the game checks again, and the abilities those
    actions triggered go on top (603.3b puts every ability waiting at that point on the stack together, in APNAP
    order and each player's chosen order); caught by mtg.apnap-order."""

    def before_priority(self) -> None:
        while True:
            earlier = list(self.waiting)
            if self.perform_state_based_actions():
                later = [t for t in self.waiting if t not in earlier]
                if earlier and later:
                    self.waiting = [t for t in self.waiting if t in earlier]
                    self.put_triggers_on_stack()
                    self.waiting = later + self.waiting
                continue
            if not self.waiting:
                return
            self.put_triggers_on_stack()


class SeatOrderGame(Game):
    """Puts simultaneous triggers on the stack the active player's first, then the other players' in seat order
    (the order of the scenario's players list) instead of turn order from the active player (101.4, 603.3b); with
    three or four players and the active player in a middle seat, non-active players come in the wrong order;
    caught by mtg.apnap-order."""

    def apnap(self) -> list[str]:
        players = super().apnap()
        if not players:
            return players
        first = players[0]
        return [first] + [p for p in self.catalog.players if p in players and p != first]


class LeavesIfForwardGame(Game):
    """Checks the intervening 'if' of an ability that looks back in time (leaves-the-battlefield, leaving a
    graveyard) on the game just after its event, looking forward, instead of just before it (603.10, 603.4), so
    such abilities are missed or trigger wrongly, under the default option leaves_intervening_if=look-back (the
    other value is this very reading); caught by mtg.look-back."""

    def triggered_by(self, group, before):
        return self.catalog.triggered_abilities(group, before, self.state, condition_looks_back=False)


class NoGraveyardLookBackGame(Game):
    """Judges abilities that trigger on a card leaving a graveyard (or on a card every player sees being put into a
    hand or library) on the game after the event, so a card leaving together with others does not see them go
    (603.10a; only leaves-the-battlefield abilities look back here); caught by mtg.look-back."""

    def triggered_by(self, group, before):
        return self.catalog.triggered_abilities(group, before, self.state,
                                                look_back=lambda trigger, event: event["type"] == "leave"
                                                and looks_back_at(trigger, event),
                                                condition_looks_back=self.condition_looks_back)


class AnywhereLooksBackGame(Game):
    """Treats an ability triggering as a card goes into a zone "from anywhere" (a zone change naming a
    destination and no origin) as a leaves-the-battlefield ability: for a permanent leaving the battlefield (or a card
    leaving a graveyard) it is judged on the game just before the event, so a permanent with such an ability that
    dies together with the card it watches still sees it (603.6c, 603.10a; a bug XMage had); caught by
    mtg.look-back."""

    def triggered_by(self, group, before):
        def old_reading(trigger, event):
            return looks_back(event) or (trigger["event"] == "zone_change" and event["type"] == "enter"
                                         and event.get("from") == "graveyard" and trigger.get("to") != BATTLEFIELD)
        return self.catalog.triggered_abilities(group, before, self.state, look_back=old_reading,
                                                condition_looks_back=self.condition_looks_back)


class DelayedIfIgnoredGame(Game):
    """Ignores the intervening 'if' of a delayed triggered ability when its event occurs: it triggers whether or
    not the condition holds (603.4 applies to delayed abilities too; 603.7); caught by mtg.intervening-if."""

    def delayed_condition_holds(self, d, event, before) -> bool:
        return True


class StateIfIgnoredGame(Game):
    """Ignores the intervening 'if' of a state trigger when its state holds: it triggers even while the condition
    is false (603.4 with 603.8); caught by mtg.intervening-if."""

    def check_state_triggers(self, event):
        new = []
        for source, ability in self.catalog.state_abilities:
            key = (source, ability["id"])
            bare = {k: v for k, v in ability.items() if k != "intervening_if"}
            if self.state_trigger_ready(key) and self.catalog.state_trigger_holds(source, bare, self.state):
                self.check_loop(key)
                new.append(self.new_trigger(source, ability, self.state.controllers[source], event))
        return new


class DelayedRepeatsGame(Game):
    """A delayed triggered ability without a duration never ends: it triggers on every later occurrence of its
    event, not only the next one (603.7b); caught by mtg.delayed-trigger."""

    def end_one(self, d, reason: str) -> None:
        if reason == "triggered":
            return
        super().end_one(d, reason)


class DelayedEachOccurrenceGame(Game):
    """A once-only delayed triggered ability triggers for every one of simultaneous occurrences of its event
    instead of one its controller chooses (603.7b), then ends; caught by mtg.delayed-trigger."""

    def delayed_triggers(self, group, before):
        new = []
        for d in self.delayed:
            if not d.alive or d.controller in self.state.left:
                continue
            matching = [e for e in group if d.matches(self.catalog, e, before)]
            d.track(self.state)
            matching = [e for e in matching if self.delayed_condition_holds(d, e, before)]
            if not matching:
                continue
            new += [self.new_trigger(d.source, d.ability, d.controller, e["id"], delayed=d.id) for e in matching]
            if d.duration is None:
                self.end_one(d, "triggered")
        return new


class DelayedSourceControllerGame(Game):
    """Gives a delayed triggered ability to whoever controls its source when it triggers (a source that has left the
    battlefield: whoever controlled it last there), instead of the controller of the ability that created it
    (603.7d-e); caught by mtg.delayed-controller."""

    def new_trigger(self, source, ability, controller, event, delayed=None):
        if delayed is not None and source in self.state.controllers and source is not None:
            controller = self.state.controllers[source]
            if self.state.zones.get(source) != BATTLEFIELD:
                controller = self.state.last_controllers.get(source, controller)
        return super().new_trigger(source, ability, controller, event, delayed)


class TargetOnResolutionGame(Game):
    """Chooses a triggered ability's target as it resolves instead of as it is put on the stack (603.3d, 601.2c):
    it goes on the stack without a target even when one is legal, and is never removed for want of one;
    caught by mtg.no-legal-target."""

    def push(self, trigger: str) -> None:
        spec = self.specs[trigger]
        if "target" not in spec:
            return super().push(trigger)
        self.record.add("stack_push", trigger=trigger, target=None)
        self.stack.append(trigger)
        self.targets[trigger] = None
        if self.catalog.listens_stacked:
            entry = self.instances[trigger]
            self.happen([{"type": "ability_stacked", "subject": entry["source"], "player": entry["controller"]}],
                        {"push": trigger})

    def resolve_top(self) -> None:
        trigger = self.stack[-1]
        if trigger in self.spells or trigger in self.activations:
            return super().resolve_top()
        spec, entry = self.specs[trigger], self.instances[trigger]
        if "target" in spec and self.targets.get(trigger) is None:
            legal = self.legal_targets(spec)
            if legal:
                k = self.chooser.choose("target", entry["controller"], entry, legal) if len(legal) > 1 else 0
                self.targets[trigger] = legal[k]
            else:
                self.remove_at_resolution(trigger, "illegal_target")
                return
        super().resolve_top()


class NoTargetKeptGame(Game):
    """Leaves a triggered ability with no legal target on the stack instead of removing it as it is put there
    (603.3d); it is removed only when it would resolve; caught by mtg.no-legal-target."""

    def push(self, trigger: str) -> None:
        spec = self.specs[trigger]
        if "target" in spec and not self.legal_targets(spec):
            self.record.add("stack_push", trigger=trigger, target=None)
            self.stack.append(trigger)
            self.targets[trigger] = None
            return
        super().push(trigger)


class ReflexiveWithoutEventGame(Game):
    """Treats a reflexive 'when you do' as 'then': the reflexive ability triggers once as it is created even when
    no matching event happened earlier in the resolution (603.12); caught by mtg.reflexive."""

    def create_delayed(self, action, ctx) -> None:
        if action["do"] != "reflexive":
            return super().create_delayed(action, ctx)
        ability = action["ability"]
        matched = any(self.catalog.pattern_matches(ability["trigger"], e, ctx.source) for e in self.resolution_events)
        super().create_delayed(action, ctx)
        if not matched:
            d = next(e for e in reversed(self.record.entries) if e["kind"] == "delayed_create")
            last = self.last_event_id()
            t = self.new_trigger(ctx.source, ability, ctx.controller, last, delayed=d["id"])
            self.announce([t] if t else [])


class ReflexiveWhenDeclinedGame(Game):
    """Creates the reflexive abilities of an optional ability whose controller declined it, and lets each trigger
    once, as if the optional action had been taken (603.12, 603.5: a declined ability does nothing); caught by
    mtg.reflexive."""

    def ask_optional(self, entry) -> bool:
        answer = super().ask_optional(entry)
        if not answer:
            spec = self.specs[entry["id"]]
            ctx = Context({"resolution": entry["id"]}, entry["source"], entry["controller"], entry["id"],
                          self.targets.get(entry["id"]))
            for action in spec.get("effect", ()):
                if action.get("do") == "reflexive":
                    super().create_delayed(action, ctx)
                    d = next(e for e in reversed(self.record.entries) if e["kind"] == "delayed_create")
                    t = self.new_trigger(ctx.source, action["ability"], ctx.controller, self.last_event_id(),
                                         delayed=d["id"])
                    self.announce([t] if t else [])
        return answer


class DroppedWithSourceGame(Game):
    """Removes a triggered ability from the stack when it would resolve if its source has left the zone where the
    ability works (113.7a: once triggered, it is independent of its source); caught by mtg.independent-of-source."""

    def resolve_top(self) -> None:
        trigger = self.stack[-1]
        if trigger in self.spells or trigger in self.activations:
            return super().resolve_top()
        entry, spec = self.instances[trigger], self.specs[trigger]
        if "delayed" not in entry and self.state.zones.get(entry["source"]) not in spec.get("active_in", ["field"]):
            self.remove_at_resolution(trigger, "source_gone")
            return
        super().resolve_top()


class DepartedKeptGame(Game):
    """Keeps the triggered abilities of a player who left the game: those waiting still go on the stack and those
    on the stack still resolve (800.4a makes them cease to exist); caught by mtg.player-leaves."""

    def cease(self, player: str) -> None:
        if self.options.get("departed_delayed", "cease") == "cease":
            for d in self.delayed:
                if d.alive and d.controller == player:
                    self.end_one(d, "player_left")


class DepartedDelayedTriggersGame(Game):
    """Keeps the delayed triggered abilities of a player who left the game alive and lets them trigger for that
    player (800.4a: nothing triggers for a player who has left; under the default option they end with them);
    caught by mtg.player-leaves."""

    def cease(self, player: str) -> None:
        keep = self.options
        self.options = {**keep, "departed_delayed": "persist"}
        try:
            super().cease(player)
        finally:
            self.options = keep

    def delayed_triggers(self, group, before):
        left, self.state.left = self.state.left, []
        try:
            return super().delayed_triggers(group, before)
        finally:
            self.state.left = left


class ControllerIsOwnerGame(Game):
    """Gives a triggered ability to its source's owner instead of the player who controlled the source when it
    triggered (603.3a); caught by mtg.trigger-controller."""

    def new_trigger(self, source, ability, controller, event, delayed=None):
        if delayed is None and source in self.catalog.owners:
            controller = self.catalog.owners[source]
        return super().new_trigger(source, ability, controller, event, delayed)


class ControlOutlivesTheBattlefieldGame(Game):
    """Keeps a permanent's controller after it leaves the battlefield (against 400.7 and 108.4a), so an ability of a
    card whose control had changed, triggering later from its owner's graveyard or as it comes back, goes to the
    player who last controlled it instead of its owner (603.3a); caught by mtg.trigger-controller."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.state.owners = {}  # State.apply then finds no owner to give a moved object back to


class PreventedTriggersGame(Game):
    """Lets prevented damage trigger abilities that watch for damage, as if it had been dealt (603.2g); caught by
    mtg.prevented-no-trigger."""

    def triggered_by(self, group, before):
        bare = [{k: v for k, v in e.items() if k != "prevented"} for e in group]
        found = list(self.catalog.triggered_abilities(bare, before, self.state, look_back=self.LOOK_BACK,
                                                      condition_looks_back=self.condition_looks_back))
        by_id = {e["id"]: e for e in group}
        return [(by_id[e["id"]], s, a, c) for e, s, a, c in found]


class FirstInFirstOutGame(Game):
    """Resolves the bottom of the stack first: first in, first out (405.5 resolves the last object put on the
    stack); caught by mtg.stack-lifo."""

    def resolve_top(self) -> None:
        self.stack.append(self.stack.pop(0))
        super().resolve_top()


class SbaMidResolutionGame(Game):
    """Checks and performs state-based actions in the middle of a resolution, right after each event (704.4: they
    are not checked while an ability resolves); caught by mtg.sba-between-resolutions."""

    def happen(self, group, cause) -> None:
        super().happen(group, cause)
        if self.resolving is not None and "sba" not in cause and not getattr(self, "_in_sba", False):
            self._in_sba = True
            try:
                while self.perform_state_based_actions():
                    pass
            finally:
                self._in_sba = False


class BatchedTriggerChecksGame(Game):
    """Looks for the abilities the events of a resolution (or of a scripted action) trigger only once the whole of it
    is over, event by event, on the game as it is then (phase.rs's scan after each action, XMage's batching at the
    end of an effect; 603.2 and 603.10 judge each event as it happens, on the game just after it): the triggers are
    announced late, after later events of the same resolution, and an ability whose source has left by then, or
    whose intervening "if" no longer holds, is lost (abilities that look back still see the game before their
    event); caught by mtg.triggers-when-satisfied."""

    _batch: list | None = None

    def perform(self, effect, ctx) -> None:
        if self._batch is not None or (ctx.trigger is None and "action" not in ctx.cause):
            return super().perform(effect, ctx)
        self._batch = []
        try:
            super().perform(effect, ctx)
        finally:
            batch, self._batch = self._batch, None
        for group, before in batch:
            new = [self.new_trigger(source, ability, controller, event["id"])
                   for event, source, ability, controller in self.how_many(list(self.triggered_by(group, before)),
                                                                           before)]
            new += self.delayed_triggers(group, before)
            self.announce([t for t in new if t is not None])

    def triggered_by(self, group, before):
        if self._batch is None:
            return super().triggered_by(group, before)
        self._batch.append((group, before.copy()))
        return []

    def delayed_triggers(self, group, before):
        return [] if self._batch is not None else super().delayed_triggers(group, before)


def _mutant(name: str, game: type[Game], key: str, edition: str = EDITIONS[0]) -> Mutant:
    return mutant(name, MtgEngine, game, key, RULESET, EDITIONS, edition)


class LastStepUnplayedGame(Game):
    """The script's last step is never played (an off-by-one in the step loop); caught by mtg.resolution-effect,
    which asks for every scripted action performed unless the game ended first (104.4b)."""

    def play(self):
        self.scenario = {**self.scenario, "script": self.scenario["script"][:-1]}
        return super().play()


MUTANTS = (
    _mutant("mtg-last-step-unplayed", LastStepUnplayedGame, "mtg.resolution-effect"),
    _mutant("mtg-apnap-reversed", ApnapReversedGame, "mtg.apnap-order"),
    _mutant("mtg-single-pass-603-3b", SinglePassGame, "mtg.trigger-on-trigger-last"),
    _mutant("mtg-no-intervening-recheck", NoInterveningRecheckGame, "mtg.intervening-if"),
    _mutant("mtg-push-mid-resolution", PushMidResolutionGame, "mtg.stack-at-priority"),
    _mutant("mtg-no-look-back", NoLookBackGame, "mtg.look-back"),
    _mutant("mtg-state-retriggers", StateRetriggersGame, "mtg.state-trigger"),
    _mutant("mtg-optional-on-trigger", OptionalOnTriggerGame, "mtg.optional-on-resolution"),
    _mutant("mtg-late-sba", LateSbaGame, "mtg.sba-loop"),
    _mutant("mtg-sba-only-on-empty-stack", SbaOnlyOnEmptyStackGame, "mtg.sba-loop"),
    _mutant("mtg-split-batch", SplitBatchGame, "mtg.apnap-order"),
    _mutant("mtg-seat-order", SeatOrderGame, "mtg.apnap-order"),
    # the fault is the reading of leaves_intervening_if=after-event played under the default reading
    replace(_mutant("mtg-leaves-if-forward", LeavesIfForwardGame, "mtg.look-back"),
            options=(("leaves_intervening_if", "look-back"),)),
    _mutant("mtg-no-graveyard-look-back", NoGraveyardLookBackGame, "mtg.look-back"),
    # issue 22, item 2: the two readings
    _mutant("mtg-anywhere-looks-back", AnywhereLooksBackGame, "mtg.look-back"),
    _mutant("mtg-if-you-is-source-controller", IfYouIsSourceControllerGame, "mtg.intervening-if"),
    # issue 22, item 3: triggers announced late
    _mutant("mtg-batched-trigger-checks", BatchedTriggerChecksGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-delayed-if-ignored", DelayedIfIgnoredGame, "mtg.intervening-if"),
    _mutant("mtg-state-if-ignored", StateIfIgnoredGame, "mtg.intervening-if"),
    _mutant("mtg-delayed-repeats", DelayedRepeatsGame, "mtg.delayed-trigger"),
    _mutant("mtg-delayed-each-occurrence", DelayedEachOccurrenceGame, "mtg.delayed-trigger"),
    _mutant("mtg-delayed-source-controller", DelayedSourceControllerGame, "mtg.delayed-controller"),
    _mutant("mtg-target-on-resolution", TargetOnResolutionGame, "mtg.no-legal-target"),
    _mutant("mtg-no-target-kept", NoTargetKeptGame, "mtg.no-legal-target"),
    _mutant("mtg-reflexive-without-event", ReflexiveWithoutEventGame, "mtg.reflexive"),
    _mutant("mtg-reflexive-when-declined", ReflexiveWhenDeclinedGame, "mtg.reflexive"),
    _mutant("mtg-dropped-with-source", DroppedWithSourceGame, "mtg.independent-of-source"),
    _mutant("mtg-departed-kept", DepartedKeptGame, "mtg.player-leaves"),
    _mutant("mtg-departed-delayed-triggers", DepartedDelayedTriggersGame, "mtg.player-leaves"),
    _mutant("mtg-controller-is-owner", ControllerIsOwnerGame, "mtg.trigger-controller"),
    _mutant("mtg-control-outlives-the-battlefield", ControlOutlivesTheBattlefieldGame, "mtg.trigger-controller"),
    _mutant("mtg-prevented-triggers", PreventedTriggersGame, "mtg.prevented-no-trigger"),
    _mutant("mtg-fifo", FirstInFirstOutGame, "mtg.stack-lifo"),
    _mutant("mtg-sba-mid-resolution", SbaMidResolutionGame, "mtg.sba-between-resolutions"),
    _mutant("mtg-damage-off-the-battlefield", DamageOffTheBattlefieldGame, "mtg.resolution-effect"),
    _mutant("mtg-departed-target-kept", DepartedTargetKeptGame, "mtg.no-legal-target"),
    _mutant("mtg-filter-you-is-active-player", ActivePlayerIsYouGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-zone-change-off-battlefield-only", ZoneChangeOutsideTheBattlefieldGame, "mtg.look-back"),
    # issue 12, item 1f: batched triggers
    _mutant("mtg-each-of-one-or-more", EachOfOneOrMoreGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-no-additional-triggers", NoAdditionalTriggersGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-once-each-turn-ignored", OnceEachTurnIgnoredGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-no-resolved-event", NoResolvedEventGame, "mtg.triggers-when-satisfied"),
    replace(_mutant("mtg-once-taken-when-performed", OnceTakenWhenPerformedGame, "mtg.triggers-when-satisfied"),
            options=(("once_each_turn_taken", "unless-declined"),)),
    _mutant("mtg-this-turn-outlives-the-turn", ThisTurnOutlivesTheTurnGame, "mtg.delayed-trigger"),
    # issue 12, item 1g: spells on the stack
    _mutant("mtg-spell-target-unchecked", SpellTargetUncheckedGame, "mtg.spell-resolution"),
    _mutant("mtg-spell-resolves-at-once", SpellResolvesAtOnceGame, "mtg.spell-resolution"),
    # issue 22, item 1: new words
    _mutant("mtg-owner-is-controller", OwnerIsControllerGame, "mtg.look-back"),
    _mutant("mtg-that-many-is-printed", ThatManyIsPrintedGame, "mtg.resolution-effect"),
    _mutant("mtg-triggers-once-read-as-do-once", TriggersOnceReadAsDoOnceGame, "mtg.triggers-when-satisfied"),
    # issue 31: more words
    _mutant("mtg-spell-delayed-dropped", SpellDelayedDroppedGame, "mtg.delayed-trigger"),
    _mutant("mtg-dealt-read-as-deals", DealtReadAsDealsGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-damage-event-once", DamageEventOnceGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-token-enters-silently", TokenEntersSilentlyGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-cost-triggers-below", CostTriggersBelowGame, "mtg.stack-lifo"),
    _mutant("mtg-combat-read-as-any-damage", CombatReadAsAnyDamageGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-that-player-unresolved", ThatPlayerUnresolvedGame, "mtg.resolution-effect"),
    # issue 30: the shapes the stream never built
    _mutant("mtg-deaths-heard-on-the-battlefield-only", DeathsHeardOnTheBattlefieldOnlyGame, "mtg.look-back"),
    _mutant("mtg-own-death-seen-from-the-graveyard", OwnDeathSeenFromTheGraveyardGame, "mtg.look-back"),
    _mutant("mtg-hidden-zone-leaves-unheard", HiddenZoneLeavesUnheardGame, "mtg.triggers-when-satisfied"),
    _mutant("mtg-each-card-leaving-a-graveyard", EachCardLeavingAGraveyardGame, "mtg.look-back"),
    _mutant("mtg-once-taken-as-resolution-ends", OnceTakenAsResolutionEndsGame, "mtg.look-back"),
    _mutant("mtg-target-check-stands-for-if", TargetCheckStandsForIfGame, "mtg.intervening-if"),
    _mutant("mtg-cast-triggers-below-the-spell", CastTriggersBelowTheSpellGame, "mtg.stack-at-priority"),
    _mutant("mtg-look-back-to-the-effects-start", LookBackToTheEffectsStartGame, "mtg.look-back"),
)
