"""Reference engine for the Redemption CCG definition of a triggered ability (REG glossary, paragraphs TA.1-TA.6).

Read it top to bottom. A game plays the scenario's script phase by phase (each script step is a phase). Each
scripted action is performed in full: cards it plays activate their non-triggered "If X, Y" abilities at once
(TA.2), and every ability an event triggers (TA.1) only becomes pending. Once no other ability is being carried
out, the pending triggered abilities activate one at a time (TA.6): those that become free together are taken the
active player's first, then each inactive player's in turn order, each player in the order they choose and
deciding on each optional one (TA.4, TA.5). When its turn comes, an optional trigger needs its card in play or in the
set-aside area and controlled by its holder; a mandatory one activates even if its card is gone, unless the card
says otherwise or it was negated (TA.3). Where the text is silent, the step names the option it follows
(reference_engine/redemption/judge/options.py: trigger_during_resolution, mandatory_after_phase,
control_change_holder). Correctness comes before speed: this engine is the oracle.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from reference_engine.kernel.engine import Chooser, Skipped
from reference_engine.common.recorder import Recorder
from reference_engine.common.reference import ReferenceEngine
from reference_engine.common.vocabulary import IN_PLAY, condition_holds, movement_event

# Option values (the judge documents them in reference_engine/redemption/judge/options.py).
AFTER_PENDING, LAPSE, OLD_CONTROLLER = "after-pending", "lapse", "old-controller"

RULESET = "redemption"
EDITIONS = ["reg-glossary"]
# TA.3: where a card must be for its optional triggered ability to activate (in play, or in the set-aside area).
PRESENT = frozenset({IN_PLAY, "set_aside"})
FOREIGN_ACTIONS = frozenset({"summon", "mark_defeat", "remedy_missed_trigger"})


class RedemptionEngine(ReferenceEngine):
    """The bundled reference engine for ``redemption``, behind the same adapter interface as any engine."""

    trusted_traces = True  # its traces skip the schema and structure checks (conformance.running.checking.trusts)

    ruleset = RULESET
    editions = tuple(EDITIONS)


class Game:
    """One play of a scenario. ``options`` are the resolved ruleset options carried by the scenario."""

    def __init__(self, scenario: dict[str, Any], chooser: Chooser):
        self.scenario = scenario
        self.options = scenario["options"]
        self.chooser = chooser
        self.record = Recorder(scenario)
        self.objects = {obj["id"]: obj for obj in scenario["objects"]}
        self.controllers = {obj["id"]: obj.get("controller", obj["owner"]) for obj in scenario["objects"]}
        self.abilities: dict[tuple[str, str], dict[str, Any]] = {}  # (card, ability id) -> its first such ability
        for obj in scenario["objects"]:
            for ability in obj.get("abilities", ()):
                self.abilities.setdefault((obj["id"], ability["id"]), ability)
        self.instances: dict[str, dict[str, Any]] = {}
        self.fresh: list[str] = []  # pending triggers not yet free to activate, in the order they arose
        self.batches: list[deque[str]] = []  # triggers free together, in activation order (see next_trigger)
        self.phase_over = False
        for obj in scenario["objects"]:
            for ability in obj.get("abilities", ()):
                if "intervening_if" in ability:
                    raise Skipped("Redemption has no intervening conditions (use checks_on_play with condition)")

    @property
    def zones(self) -> dict[str, str]:
        return self.record.zones.zones

    # -- The turn, phase by phase ------------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        for step_index, step in enumerate(self.scenario["script"]):
            self.record.add("step_begin", step=step_index)
            self.phase_over = False
            self.activate_pending()  # TA.6: triggers carried over from a phase that an effect ended early
            for action_index, action in enumerate(step["actions"]):
                if self.phase_over:
                    break  # an effect ended the phase: the step's remaining scripted actions are skipped
                ref = [step_index, action_index]
                self.record.add("action_begin", action=ref)
                self.perform(action["effect"], cause={"action": ref}, source=None, player=action["by"])
                self.record.add("action_end", action=ref)
                self.activate_pending()
            self.record.add("step_advance", **{"from": step_index})
            self.lapse_at_phase_end()
        # A phase ended early in the last step: what is still pending activates in the phase after the script.
        while self.has_pending():
            self.phase_over = False
            self.activate_pending()
        return self.record.trace()

    # -- Performing actions and abilities; triggering (TA.1, TA.2) ---------------------------------------------

    def perform(self, effect: list[dict[str, Any]], cause: dict[str, Any], source: str | None, player: str | None) -> None:
        """Perform primitive actions in order. Abilities that trigger only become pending (TA.1, TA.6)."""
        for action in effect:
            do = action["do"]
            if do in FOREIGN_ACTIONS:
                raise Skipped(f"'{do}' is not part of the Redemption vocabulary")
            if do == "signal":
                self.happen("signal", cause, subject=action.get("subject", source), name=action["name"], player=player)
            elif do == "move":
                obj, to = action["object"], action["to"]
                if self.zones.get(obj) not in (None, to):
                    frm = self.zones[obj]
                    self.happen(movement_event(frm, to), cause, subject=obj, player=player, **{"from": frm, "to": to})
            elif do == "play":
                self.play_card(action["object"], cause, player)
            elif do == "negate":
                self.happen("negate", cause, subject=action["object"], ability=action.get("ability"), player=player)
                self.negate(action["object"], action.get("ability"))
            elif do == "gain_control":
                obj, new = action["object"], action["player"]
                old = self.controllers.get(obj)
                if old != new:
                    self.controllers[obj] = new  # the control event happens with the card under its new controller
                    self.happen("control", cause, subject=obj, controller=new, player=player, previous=old)
            elif do == "end_phase":
                self.happen("end_phase", cause, player=player)
                self.phase_over = True  # the phase ends once the current ability or action completes

    def happen(self, type_: str, cause: dict[str, Any], previous: str | None = None, **fields: Any) -> dict[str, Any]:
        """Record an event; every triggered ability whose situation it is triggers and is pending (TA.1), held by its
        card's controller. ``previous``: for a control event, the card's controller before the change."""
        event, before = self.record.event(type_, cause, **fields)
        for source, ability in self.record.zones.satisfied_abilities(event, self.scenario, before):
            if ability.get("checks_on_play"):
                continue  # TA.2: an "If X, Y" ability is not a triggered ability
            holder = self.controllers[source]
            if type_ == "control" and source == event.get("subject") and \
                    self.options.get("control_change_holder") == OLD_CONTROLLER:
                holder = previous  # option control_change_holder: the trigger about its own card looks back
            trigger = self.record.add("trigger", id=self.record.new_id("T"), ability=ability["id"], source=source,
                                      controller=holder, event=event["id"])
            self.instances[trigger["id"]] = trigger
            self.fresh.append(trigger["id"])
        return event

    def play_card(self, card: str, cause: dict[str, Any], player: str | None) -> None:
        """Play a card from hand into play; TA.2: its non-triggered abilities activate now, in printed order, and
        never wait. A card that is not in hand cannot be played: nothing happens."""
        frm = self.zones.get(card)
        if frm != "hand":
            return
        self.happen("play", cause, subject=card, player=player, **{"from": frm, "to": IN_PLAY})
        for ability in self.objects[card].get("abilities", ()):
            if ability.get("checks_on_play"):
                self.activate_on_play(card, ability, player)

    def activate_on_play(self, card: str, ability: dict[str, Any], player: str | None) -> None:
        """TA.2: the condition is checked at this moment; the ability completes or fails now."""
        held = condition_holds(ability.get("condition"), self.zones, card)
        activation = self.record.new_id("V")
        self.record.add("activation_begin", id=activation, ability=ability["id"], source=card, condition_held=held)
        if held:
            self.perform(ability["effect"], cause={"activation": activation}, source=card, player=player)
        self.record.add("activation_end", id=activation)

    def negate(self, card: str, ability: str | None) -> None:
        """TA.3: a negated triggered ability ends; its pending instances never activate."""
        self.drop_all([trigger for trigger in self.pending()
                       if self.instances[trigger]["source"] == card and ability in (None, self.instances[trigger]["ability"])],
                      "negated")

    # -- Pending triggered abilities (TA.4, TA.5, TA.6) ----------------------------------------------------------

    def pending(self) -> list[str]:
        """The pending triggers in the order they arose. Those removed together (by one negation, or lapsing at one
        phase end) are removed in that order, which does not depend on the order players chose for their turns."""
        waiting = set(self.fresh).union(*self.batches)
        return [t for t in self.instances if t in waiting]

    def has_pending(self) -> bool:
        return bool(self.fresh) or any(self.batches)

    def drop(self, trigger: str, reason: str) -> None:
        if trigger in self.fresh:
            self.fresh.remove(trigger)
        for batch in self.batches:
            if trigger in batch:
                batch.remove(trigger)
        self.record.add("removed", trigger=trigger, reason=reason)

    def drop_all(self, triggers: list[str], reason: str) -> None:
        """:meth:`drop` each of ``triggers`` (distinct pending triggers), in that order, in one pass over the pending
        ones: removing k of n costs O(n + k), not O(n k)."""
        gone = set(triggers)
        if not gone:
            return
        self.fresh[:] = [t for t in self.fresh if t not in gone]
        for batch in self.batches:
            kept = [t for t in batch if t not in gone]
            if len(kept) != len(batch):
                batch.clear()
                batch.extend(kept)
        for trigger in triggers:
            self.record.add("removed", trigger=trigger, reason=reason)

    def activate_pending(self) -> None:
        """TA.6: nothing else is being carried out, so pending triggered abilities activate, one at a time."""
        while not self.phase_over:
            trigger = self.next_trigger()
            if trigger is None:
                return
            self.take_turn(trigger)

    def next_trigger(self) -> str | None:
        """The next pending trigger to activate. Option trigger_during_resolution decides where triggers that arose
        while an ability resolved go: after every trigger already free (a queue of batches), or ahead of them (a
        stack of batches)."""
        if self.options["trigger_during_resolution"] == AFTER_PENDING:
            if not (self.batches and self.batches[-1]) and self.fresh:
                self.batches = [self.order_batch(self.fresh)]
                self.fresh = []
        elif self.fresh:
            self.batches.append(self.order_batch(self.fresh))
            self.fresh = []
        while self.batches and not self.batches[-1]:
            self.batches.pop()
        return self.batches[-1].popleft() if self.batches else None

    def order_batch(self, triggers: list[str]) -> deque[str]:
        """TA.4, TA.5: the active player's first, then each inactive player's in turn order; each player orders
        their own. Mandatory and optional triggers that are free together share one order."""
        ordered: list[str] = []
        for player in self.seats():
            mine = [t for t in triggers if self.instances[t]["controller"] == player]
            if len(mine) > 1:
                permutation = self.chooser.order(player, [self.instances[t] for t in mine])
                chosen = [mine[k] for k in permutation]
                self.record.add("choice", player=player, decision="order", among=mine, chosen=chosen)
                mine = chosen
            ordered.extend(mine)
        return deque(ordered)

    def seats(self) -> list[str]:
        """Players in turn order around the table, starting with the active player."""
        players = self.scenario["players"]
        start = players.index(self.scenario["active_player"])
        return players[start:] + players[:start]

    def take_turn(self, trigger_id: str) -> None:
        """TA.3: an optional trigger needs its card in play or set aside and controlled by its holder, and its
        holder's yes (TA.5); a mandatory one activates even if its card is gone, unless its card says otherwise."""
        trigger = self.instances[trigger_id]
        card = trigger["source"]
        ability = self.ability(trigger)
        present = self.zones.get(card) in PRESENT
        if ability.get("optional"):
            if not present or self.controllers.get(card) != trigger["controller"]:
                self.record.add("removed", trigger=trigger_id, reason="source_gone")
                return
            if not self.ask_optional(trigger):
                self.record.add("removed", trigger=trigger_id, reason="declined")
                return
        elif ability.get("ends_if_card_leaves") and not present:
            self.record.add("removed", trigger=trigger_id, reason="card_left")
            return
        self.resolve(trigger)

    def resolve(self, trigger: dict[str, Any]) -> None:
        self.record.add("resolve_begin", trigger=trigger["id"])
        self.perform(self.ability(trigger)["effect"], cause={"resolution": trigger["id"]}, source=trigger["source"],
                     player=trigger["controller"])
        self.record.add("resolve_end", trigger=trigger["id"])

    def ask_optional(self, trigger: dict[str, Any]) -> bool:
        answer = bool(self.chooser.optional(trigger["controller"], trigger))
        self.record.add("choice", player=trigger["controller"], decision="optional", among=[trigger["id"]], chosen=answer)
        return answer

    def ability(self, trigger: dict[str, Any]) -> dict[str, Any]:
        return self.abilities.get((trigger["source"], trigger["ability"])) or next(
            a for a in self.objects[trigger["source"]]["abilities"] if a["id"] == trigger["ability"])  # (raises)

    # -- The end of a phase (TA.3) -----------------------------------------------------------------------------

    def lapse_at_phase_end(self) -> None:
        """TA.3 guarantees a pending mandatory trigger only until the end of the current phase; option
        mandatory_after_phase says whether one whose card is gone lapses now or keeps waiting."""
        if self.options["mandatory_after_phase"] != LAPSE:
            return
        self.drop_all([trigger for trigger in self.pending()
                       if not self.ability(self.instances[trigger]).get("optional")
                       and self.zones.get(self.instances[trigger]["source"]) not in PRESENT], "expired")


RedemptionEngine.game_class = Game
