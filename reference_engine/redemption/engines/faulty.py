"""Redemption mutants: the reference engine (reference_engine/redemption/engines/reference.py) with one fault each.

Each class overrides one step of :class:`reference_engine.redemption.engines.reference.Game`; its docstring names the fault and
the rule key that must catch it. Each is a bug an engine author plausibly writes (reference_engine/redemption/docs.md, "Faulty
engines"), and each fails a golden fixture on its key (tests/test_redemption_fixtures.py, MUTANT_FIXTURES).
"""

from __future__ import annotations

from reference_engine.common.faulty import mutant
from reference_engine.redemption.engines.reference import EDITIONS, IN_PLAY, PRESENT, RULESET, Game, RedemptionEngine


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


class SeatOrderGame(Game):
    """Fault: after the active player, the inactive players take their simultaneous triggers in seat order (the order
    of the table list from its first seat) instead of turn order from the active player, against TA.4. With three or
    four players and the active player in a middle seat the order differs. Caught by ``red.active-player-first``."""

    def seats(self) -> list[str]:
        active = self.scenario["active_player"]
        return [active] + [p for p in self.scenario["players"] if p != active]


class NegationIgnoredGame(Game):
    """Fault: a negate effect does nothing at all (no negate event, the card's pending triggers keep waiting), against
    TA.1 (the effect is not carried out) and TA.3. Caught by ``red.effect-carried-out``."""

    def perform(self, effect, cause, source, player) -> None:
        super().perform([a for a in effect if a["do"] != "negate"], cause, source, player)


class NegationMissesFreeBatchGame(Game):
    """Fault: negation ends only the pending triggers not yet put in order (those that arose during the current
    resolution or action); a trigger already free in the batch being taken, such as the other player's trigger of the
    same situation, still activates, against TA.3. Caught by ``red.negation-ends``."""

    def negate(self, card, ability) -> None:
        for trigger in list(self.fresh):
            t = self.instances[trigger]
            if t["source"] == card and ability in (None, t["ability"]):
                self.drop(trigger, "negated")


class LazyNegationGame(Game):
    """Fault: negation marks the card (or ability) as negated and a pending trigger is only dropped when its turn comes,
    so it stays pending after the negation and a trigger of the card arising later is dropped too, against TA.3.
    Caught by ``red.negation-ends``."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.negated_marks: set[tuple[str, str | None]] = set()

    def negate(self, card, ability) -> None:
        self.negated_marks.add((card, ability))

    def take_turn(self, trigger_id: str) -> None:
        t = self.instances[trigger_id]
        if (t["source"], None) in self.negated_marks or (t["source"], t["ability"]) in self.negated_marks:
            self.record.add("removed", trigger=trigger_id, reason="negated")
            return
        super().take_turn(trigger_id)


class LapseIgnoredGame(Game):
    """Fault: a pending mandatory trigger whose card is gone never lapses when an effect ends the phase (the engine
    ignores option mandatory_after_phase=lapse and carries it over), against TA.3 under the default reading. Caught by
    ``red.mandatory-after-phase``."""

    def lapse_at_phase_end(self) -> None:
        return


class LapsesOptionalGame(Game):
    """Fault: at the end of a phase every pending trigger whose card is out of play and set-aside lapses, the optional
    ones included (the lapse of TA.3 is only for mandatory ones; an optional one keeps its turn and is removed then
    as its card is gone). Caught by ``red.mandatory-after-phase``."""

    def lapse_at_phase_end(self) -> None:
        super().lapse_at_phase_end()
        if self.options["mandatory_after_phase"] != "lapse":
            return
        for trigger in self.pending():
            t = self.instances[trigger]
            if self.ability(t).get("optional") and self.zones.get(t["source"]) not in PRESENT:
                self.drop(trigger, "expired")


class OptionalAskedEarlyGame(Game):
    """Fault: the holder of an optional trigger is asked whether to use it as soon as it triggers, and the answer is
    applied when its turn comes, against TA.5 (the choice is made at its turn, among the triggers then free). Caught
    by ``red.optional-choice``."""

    def __init__(self, scenario, chooser):
        super().__init__(scenario, chooser)
        self.early_answers: dict[str, bool] = {}

    def happen(self, type_, cause, previous=None, **fields):
        before = set(self.instances)
        event = super().happen(type_, cause, previous, **fields)
        for trigger_id in self.instances:
            if trigger_id not in before and self.ability(self.instances[trigger_id]).get("optional"):
                self.early_answers[trigger_id] = Game.ask_optional(self, self.instances[trigger_id])
        return event

    def ask_optional(self, trigger) -> bool:
        return self.early_answers.get(trigger["id"], True)


class MandatoryAskedGame(Game):
    """Fault: the holder is asked whether to use every trigger when its turn comes, the mandatory ones too (answered
    yes, they activate), against TA.3: a mandatory trigger gives no choice. Caught by ``red.mandatory-no-choice``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        if not self.ability(trigger).get("optional") and not self.ask_optional(trigger):
            self.record.add("removed", trigger=trigger_id, reason="declined")
            return
        super().take_turn(trigger_id)


class IfXYPendingGame(Game):
    """Fault: an "If X, Y" ability that checks on play is treated as a triggered ability: playing its card makes it a
    pending trigger that waits for its turn, against TA.2. Caught by ``red.if-x-y-never-waits``."""

    def play_card(self, card, cause, player) -> None:
        if self.zones.get(card) != "hand":
            return
        event = self.happen("play", cause, subject=card, player=player, **{"from": "hand", "to": IN_PLAY})
        for ability in self.objects[card].get("abilities", ()):
            if ability.get("checks_on_play"):
                trigger = self.record.add("trigger", id=self.record.new_id("T"), ability=ability["id"], source=card,
                                          controller=self.controllers[card], event=event["id"])
                self.instances[trigger["id"]] = trigger
                self.fresh.append(trigger["id"])


class TriggersBeforeOnPlayGame(Game):
    """Fault: the triggers that playing a card causes activate at once, before the card's own "If X, Y" abilities,
    inserting themselves between the playing of the card and its abilities, against TA.2 and TA.6. Caught by
    ``red.if-x-y-never-waits``."""

    def play_card(self, card, cause, player) -> None:
        if self.zones.get(card) != "hand":
            return
        self.happen("play", cause, subject=card, player=player, **{"from": "hand", "to": IN_PLAY})
        self.activate_pending()
        for ability in self.objects[card].get("abilities", ()):
            if ability.get("checks_on_play"):
                self.activate_on_play(card, ability, player)


class SetAsideDroppedGame(Game):
    """Fault: only cards in play count as present, so an optional trigger whose card was set aside is dropped when
    its turn comes (and a mandatory one whose card says it ends once gone ends), against TA.3: the set-aside area
    keeps a card's triggers. Caught by ``red.optional-needs-card``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        ability = self.ability(trigger)
        if self.zones.get(trigger["source"]) == "set_aside":
            if ability.get("optional"):
                self.record.add("removed", trigger=trigger_id, reason="source_gone")
                return
            if ability.get("ends_if_card_leaves"):
                self.record.add("removed", trigger=trigger_id, reason="card_left")
                return
        super().take_turn(trigger_id)


class ControlChangeIgnoredGame(Game):
    """Fault: a change of control is recorded but the engine keeps the card under its old controller, so the card's
    later triggers are held by the wrong player and an optional trigger whose card changed hands still activates,
    against TA.1 and TA.3. Caught by ``red.triggers-on-situation``."""

    def perform(self, effect, cause, source, player) -> None:
        for action in effect:
            if action["do"] == "gain_control":
                old = self.controllers.get(action["object"])
                if old != action["player"]:  # the event happens (and triggers), the controller is never updated
                    self.happen("control", cause, subject=action["object"], controller=action["player"],
                                player=player, previous=old)
                continue
            super().perform([action], cause, source, player)


class ControlHolderLooksBackGame(Game):
    """Fault: a card's trigger about its own change of control is always held by the player who lost the card,
    whatever option control_change_holder says (default new-controller), against TA.1 under that reading. Caught by
    ``red.triggers-on-situation``."""

    def happen(self, type_, cause, previous=None, **fields):
        if type_ != "control":
            return super().happen(type_, cause, previous, **fields)
        options = self.options
        self.options = {**options, "control_change_holder": "old-controller"}
        try:
            return super().happen(type_, cause, previous, **fields)
        finally:
            self.options = options


class PhaseEndsLateGame(Game):
    """Fault: an effect that ends the phase only takes hold once every pending trigger has activated, so triggers keep
    taking turns in a phase that was ended (and a mandatory one that should lapse activates), against TA.6 and the
    end_phase model. Caught by ``red.pending-then-activates``."""

    def activate_pending(self) -> None:
        ended = self.phase_over
        while True:
            self.phase_over = False
            super().activate_pending()
            ended = ended or self.phase_over
            if not self.phase_over:
                break  # nothing was left pending
        self.phase_over = ended


class ForeignRemovalReasonGame(Game):
    """Fault: built on a Magic-style core, the engine reports an optional trigger whose card is gone as removed for a
    failed intervening condition ('intervening_if'), a reason Redemption does not have. Caught by
    ``red.removal-reason``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        card = trigger["source"]
        if self.ability(trigger).get("optional") and (
                self.zones.get(card) not in PRESENT or self.controllers.get(card) != trigger["controller"]):
            self.record.add("removed", trigger=trigger_id, reason="intervening_if")
            return
        super().take_turn(trigger_id)


class CardSaysOtherwiseIgnoredGame(Game):
    """Fault: a mandatory trigger whose card says the ability ends once the card is gone (ends_if_card_leaves) still
    activates after its card left, the engine treating every mandatory trigger alike, against TA.3 ("unless the card
    specifies otherwise"). Caught by ``red.mandatory-persists``."""

    def take_turn(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        ability = self.ability(trigger)
        if ability.get("ends_if_card_leaves") and not ability.get("optional"):
            self.resolve(trigger)
            return
        super().take_turn(trigger_id)


class NegatesWholeCardGame(Game):
    """Fault: negating one ability of a card ends the pending triggers of every ability of that card, against TA.3
    (only the negated ability ends). Caught by ``red.negation-ends``."""

    def negate(self, card, ability) -> None:
        super().negate(card, None)


class StackOfBatchesGame(Game):
    """Fault: triggers that arise while a triggered ability resolves always go ahead of those already pending (a stack
    of batches), whatever option trigger_during_resolution says (default after-pending), against TA.6 under that
    reading. Caught by ``red.new-trigger-placement``."""

    def next_trigger(self):
        options = self.options
        self.options = {**options, "trigger_during_resolution": "before-pending"}
        try:
            return super().next_trigger()
        finally:
            self.options = options


class LastStepUnplayedGame(Game):
    """Fault: the script's last step is never played (an off-by-one in the step loop). Caught by
    ``red.effect-carried-out``, which asks for every scripted action carried out unless an effect ended its phase."""

    def play(self):
        self.scenario = {**self.scenario, "script": self.scenario["script"][:-1]}
        return super().play()


MUTANTS = tuple(
    mutant(name, RedemptionEngine, game, key, RULESET, EDITIONS, fault=fault)
    for name, game, key, fault in (
        ("redemption-last-step-unplayed", LastStepUnplayedGame, "red.effect-carried-out",
         "the script's last step is never played"),
        ("redemption-inactive-player-first", InactivePlayerFirstGame, "red.active-player-first",
         "inactive players' simultaneous triggers are resolved before the active player's"),
        ("redemption-cuts-in", CutsInGame, "red.no-cutting-in", "a triggered ability cuts in between other abilities"),
        ("redemption-drops-mandatory", DropsMandatoryGame, "red.mandatory-persists",
         "a mandatory trigger is dropped when its card leaves play"),
        ("redemption-optional-after-discard", OptionalAfterDiscardGame, "red.optional-needs-card",
         "an optional trigger activates after its card was discarded"),
        ("redemption-seat-order", SeatOrderGame, "red.active-player-first",
         "inactive players' triggers go in seat order instead of turn order from the active player"),
        ("redemption-negation-ignored", NegationIgnoredGame, "red.effect-carried-out",
         "a negate effect does nothing"),
        ("redemption-negation-misses-free-batch", NegationMissesFreeBatchGame, "red.negation-ends",
         "a negated trigger already free in its batch still activates"),
        ("redemption-lazy-negation", LazyNegationGame, "red.negation-ends",
         "negation is checked only when a trigger's turn comes, and also ends later triggers of the card"),
        ("redemption-lapse-ignored", LapseIgnoredGame, "red.mandatory-after-phase",
         "a pending mandatory trigger whose card is gone does not lapse at the end of the phase"),
        ("redemption-lapses-optional", LapsesOptionalGame, "red.mandatory-after-phase",
         "optional triggers whose card is gone lapse at the end of the phase too"),
        ("redemption-optional-asked-early", OptionalAskedEarlyGame, "red.optional-choice",
         "an optional trigger's holder is asked when it triggers, not at its turn"),
        ("redemption-mandatory-asked", MandatoryAskedGame, "red.mandatory-no-choice",
         "the holder of a mandatory trigger is asked whether to use it"),
        ("redemption-if-x-y-pending", IfXYPendingGame, "red.if-x-y-never-waits",
         "an 'If X, Y' ability that checks on play is queued as a pending trigger"),
        ("redemption-triggers-before-on-play", TriggersBeforeOnPlayGame, "red.if-x-y-never-waits",
         "triggers activate between the playing of a card and its 'If X, Y' abilities"),
        ("redemption-set-aside-dropped", SetAsideDroppedGame, "red.optional-needs-card",
         "the triggers of a set-aside card are dropped as if it were gone"),
        ("redemption-control-change-ignored", ControlChangeIgnoredGame, "red.triggers-on-situation",
         "a change of control is recorded but the card stays under its old controller"),
        ("redemption-control-holder-looks-back", ControlHolderLooksBackGame, "red.triggers-on-situation",
         "a trigger about its own card's change of control is held by the old controller under new-controller"),
        ("redemption-phase-ends-late", PhaseEndsLateGame, "red.pending-then-activates",
         "pending triggers keep activating after an effect ended the phase"),
        ("redemption-foreign-removal-reason", ForeignRemovalReasonGame, "red.removal-reason",
         "a trigger is removed for a reason of another game (intervening_if)"),
        ("redemption-card-says-otherwise-ignored", CardSaysOtherwiseIgnoredGame, "red.mandatory-persists",
         "a mandatory trigger whose card says it ends once the card is gone still activates after the card left"),
        ("redemption-negates-whole-card", NegatesWholeCardGame, "red.negation-ends",
         "negating one ability of a card ends the triggers of all its abilities"),
        ("redemption-stack-of-batches", StackOfBatchesGame, "red.new-trigger-placement",
         "triggers arising during a resolution go ahead of those already pending under after-pending"),
    )
)
