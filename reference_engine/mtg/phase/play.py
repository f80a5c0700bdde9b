"""Driving the game: one scenario played on phase. A free-for-all game with one seat per scenario player in turn
order, the active player first; every hand kept; debug mode on; the battlefield placed without triggers
(``simulate: false``); then each scripted action, every player passing priority until the stack is empty, phase's
prompts answered from the harness's chooser (:mod:`.prompts`), and what phase reports read back into the trace
(:mod:`.trace`, :mod:`.stack`)."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Chooser, Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.combat import Combat, combat_hits_of, writes_combat
from reference_engine.mtg.phase.events import BOOKKEEPING, NEUTRAL, PHASE_ZONE, first_sba, sba_tail, when_you_do
from reference_engine.mtg.phase.prompts import PromptAnswers
from reference_engine.mtg.phase.render import Names, card_name, reflexive_victim, render_ability
from reference_engine.mtg.phase.signals import (DRAW_LINES, FILLER, SIGNAL_PREFIX, Signals, delayed_on_phase,
                                                draw_signals, land_face, scripted_signals)
from reference_engine.mtg.phase.stack import StackReader
from reference_engine.mtg.phase.tokens import MAKER, TokenMaker, maker_face, move_key, move_sets, token_sets
from reference_engine.mtg.phase.trace import TraceWriter
from reference_engine.mtg.phase.unseen import Unseen

MAX_APPLIES = 2000


class Play(TraceWriter, StackReader, PromptAnswers, Unseen, TokenMaker, Signals, Combat):
    """One scenario played on phase, and the trace written from what phase reports."""

    def __init__(self, phase, scenario: dict[str, Any], chooser: Chooser, faces: dict[str, Any], names: Names):
        self.scenario, self.chooser = scenario, chooser
        self.faces = faces
        self.descriptions = {o["id"]: [t["description"] for t in faces[card_name(o["id"]).lower()]["triggers"]]
                             for o in scenario["objects"]}
        self.players: list[str] = scenario["players"]
        self.seat = {p: n for n, p in enumerate(self.players)}
        self.active = scenario["active_player"]
        self.objects = {o["id"]: o for o in scenario["objects"]}
        self.texts = {a["id"]: render_ability(a, o, names) for o in scenario["objects"] for a in o.get("abilities", ())}
        self.entries: list[dict[str, Any]] = []
        self.counters = {"E": 0, "T": 0, "S": 0, "D": 0}
        # every ability by id, the reflexive ones (603.12) inside effects too
        self.specs = {a["id"]: a for o in scenario["objects"] for a in o.get("abilities", ())}
        self.parent_of = {e["ability"]["id"]: a["id"] for a in self.specs.values() for e in a["effect"]
                          if e.get("do") in ("reflexive", "create_delayed")}
        self.specs |= {e["ability"]["id"]: e["ability"] for a in list(self.specs.values()) for e in a["effect"]
                       if e.get("do") in ("reflexive", "create_delayed")}
        # delayed abilities created and still waiting to trigger (all last the turn, the script's only turn)
        self.live_delayed: list[dict[str, Any]] = []
        self.creations: dict[str, int] = {}  # resolving trigger -> delayed abilities it has created so far
        # (source, printed index) -> phase's "When you do" effect, which tells a reflexive entry of phase's stack
        # from its parent's (both name the parent's printed_index and trigger event)
        self.reflexive_effects = {
            (o["id"], n): json.dumps(when_you_do(t["execute"]), sort_keys=True)
            for o in scenario["objects"] for n, t in enumerate(faces[card_name(o["id"]).lower()]["triggers"])
            if when_you_do(t["execute"]) is not None}
        # reflexive abilities created and triggered, not yet seen on phase's stack or in an OrderTriggers prompt
        self.reflexive_waiting: list[dict[str, Any]] = []
        self.position = 0
        self.zones = {o["id"]: o["zone"] for o in scenario["objects"]}
        self.control = {o["id"]: o.get("controller", o["owner"]) for o in scenario["objects"]}
        self.left: set[str] = set()  # players who left the game
        self.left_since: list[tuple[str, int]] = []  # (player, their player_leaves event's number) since priority
        self.to_scenario: dict[int, str] = {}
        self.to_phase: dict[str, int] = {}
        self.known_stack: dict[int, str] = {}  # phase stack entry id -> trigger id
        self.pending: list[dict[str, Any]] = []  # trigger entries named in an OrderTriggers prompt, not yet pushed
        self.triggers: dict[str, dict[str, Any]] = {}
        self.chosen_targets: dict[str, str] = {}  # trigger -> the target chosen after it went on phase's stack
        self.offered_events: dict[str, Any] = {}  # trigger -> phase's trigger event, for prompts with a target
        self.push_orders: list[list[str]] = []  # the push order answered to such prompts (trigger ids)
        self.seen_at_priority = (0, 0)  # event and trigger counters when a player last received priority
        self.applies = 0
        self.debug_controlled: set[int] = set()  # phase objects given a controller by debug SetController
        self.debug_moved = False  # whether the last scripted zone change was a debug move (no game action for it)
        self.maker: int | None = None  # phase's token maker (tokens.py), if the script creates tokens
        self.signal_lands: dict[str, list[int]] = {}  # signals.py: helper land name -> phase ids not played yet
        self.fillers: set[int] = set()  # signals.py: the draws' filler cards (phase ids)
        self.signal_events: dict[int, str] = {}  # a played helper land -> its signal event
        self.combat_marks = writes_combat(scenario)  # combat.py: the trace marks phase's combat damage
        self.phase_events: dict[str, str] = {}  # signals.py: phase's step -> its signal event, once phase reached it
        self.start_game(phase, faces, names)
        self.place_cards()
        self.ready_attackers()

    def start_game(self, phase, faces: dict[str, Any], names: Names) -> None:
        """A free-for-all game of phase with one seat per player in turn order, the active player first, decks of
        the cards each owns (and the token maker, the active player's, if the script creates tokens); every hand
        kept; debug mode on."""
        faces = dict(faces)
        decks = [[card_name(o["id"]) for o in self.scenario["objects"] if o["owner"] == p and o["zone"] != "uncreated"]
                 for p in self.players]
        self.maker_base = len(token_sets(self.scenario)) + len(move_sets(self.scenario))  # then the draws' abilities
        helped = self.maker_base + (len(DRAW_LINES) if draw_signals(self.scenario) else 0)
        for by in draw_signals(self.scenario):  # signals.py: a filler card in the drawer's library per draw
            decks[self.players.index(by)].append(FILLER)
            faces[FILLER.lower()] = phase.build_oracle_face(land_face(FILLER), None)
        if helped:
            kinds = {t: names.one(t) for t in names.uncreated if t not in names.noncreature}
            plurals = {o: names.all(o) for o in names.types if o not in names.noncreature}
            maker = phase.build_oracle_face(maker_face(self.scenario, kinds, plurals), None)
            if len(maker["abilities"]) != helped or maker["triggers"]:
                raise Skipped(f"phase adapter: phase parsed the token maker into something else than its abilities: "
                              f"{maker['oracle_text']!r}")
            faces[MAKER.lower()] = maker
            decks[self.seat[self.active]].append(MAKER)
        for name in scripted_signals(self.scenario):  # signals.py: a helper land per scripted signal
            faces[(SIGNAL_PREFIX + name).lower()] = phase.build_oracle_face(land_face(SIGNAL_PREFIX + name), None)
            decks[self.seat[self.active]].append(SIGNAL_PREFIX + name)
        engine = phase.Engine.from_json(json.dumps(faces))
        try:
            game = engine.new_game(player=decks[0], opponent=decks[1], extra_players=decks[2:] or None, seed=1,
                                   format="FreeForAll", first_player=self.seat[self.active])
        except Exception as exc:
            raise EngineError("errored", f"phase could not start the game: {exc}") from None
        self.game = game
        while game.waiting_for()["type"] == "MulliganDecision":
            seat = game.waiting_for()["data"]["pending"][0]["player"]
            self.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
        state = game.state()
        state["state"]["debug_mode"] = True
        state["state"]["debug_permitted"] = list(range(len(self.players)))
        # the script's one turn is played in the active player's main phase, with a land play for every card it
        # may play (every card is a land creature: scripted entries are phase's PlayLand where it allows one)
        state["state"]["phase"] = "PreCombatMain"
        state["state"]["max_lands_per_turn"] = \
            len(self.scenario["objects"]) + len(scripted_signals(self.scenario)) + 1
        self.game = engine.load_game(state)
        self.waiting = self.game.waiting_for()

    def place_cards(self) -> None:
        """Each card dealt into its owner's hand, mapped to its object; the battlefield (and the cards starting in a
        graveyard, a library or exile) placed without triggers (``simulate: false``), under its controllers; starting life totals set (debug ``SetLife``)."""
        for p in self.players:
            for card in self.game.hand(self.seat[p]):
                if card["name"] == MAKER:  # placed like a card starting on the battlefield, no scenario object
                    self.maker = card["id"]
                    self.debug(self.seat[p], card["id"], "field", simulate=False)
                    continue
                if card["name"] == FILLER:  # signals.py: a draw's card, in its drawer's library, no scenario object
                    self.fillers.add(card["id"])
                    self.debug(self.seat[p], card["id"], "deck", simulate=False)
                    continue
                if card["name"].startswith(SIGNAL_PREFIX):  # signals.py: kept in the hand, no scenario object
                    self.signal_lands.setdefault(card["name"], []).append(card["id"])
                    continue
                obj_id = card["name"][len("Conformance "):]
                self.to_scenario[card["id"]], self.to_phase[obj_id] = obj_id, card["id"]
        if sum(map(len, self.signal_lands.values())) != len(scripted_signals(self.scenario)):
            raise Skipped("phase adapter: phase dealt 7 cards, not every helper land of the signals")
        missing = [o for o in self.objects if o not in self.to_phase and self.zones[o] != "uncreated"]
        if missing:
            raise EngineError("errored", f"phase did not deal {missing} into their owners' hands")
        for obj in self.scenario["objects"]:
            if obj["zone"] not in ("hand", "uncreated"):  # the battlefield, a graveyard, a library or exile
                self.debug(self.seat[obj["owner"]], self.to_phase[obj["id"]], obj["zone"], simulate=False)
            if obj["zone"] == "field" and obj.get("controller", obj["owner"]) != obj["owner"]:
                self.set_controller(self.to_phase[obj["id"]], obj["controller"])
        for player, total in (self.scenario.get("life") or {}).items():
            self.apply(self.seat[player], {"type": "Debug", "data": {"type": "SetLife", "data": {
                "player_id": self.seat[player], "life": total}}})
        if self.game.stack():
            raise EngineError("errored", "placing the battlefield without triggers put something on phase's stack")

    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        self.applies += 1
        if self.applies > MAX_APPLIES:
            raise EngineError("timed-out", f"phase did not finish the scenario within {MAX_APPLIES} actions")
        events = self.game.apply(seat, action).to_dict()["events"]
        self.waiting = self.game.waiting_for()  # what phase waits for changes only with an action: read once
        if self.waiting["type"] == "GameOver":
            raise Skipped("phase adapter: the game ended (a two-player game ends when a player loses; the scenario "
                          "goes on without them)")
        return events

    def set_controller(self, object_id: int, player: str) -> bool:
        """Debug ``SetController``; whether phase's object changed controller (read back from phase). The object is
        remembered: a debug control change is no control-changing effect that ends as the card leaves the
        battlefield, and phase keeps it on the card (see :meth:`scripted_move`)."""
        self.debug_controlled.add(object_id)
        before = self.game.object(object_id)["controller"]
        self.apply(self.seat[player], {"type": "Debug", "data": {"type": "SetController", "data": {
            "object_id": object_id, "controller": self.seat[player]}}})
        after = self.game.object(object_id)["controller"]
        if after != self.seat[player]:
            raise EngineError("errored", f"phase's SetController left object {object_id} with seat {after}")
        return after != before

    def debug(self, seat: int, object_id: int, zone: str, simulate: bool) -> list[dict[str, Any]]:
        return self.apply(seat, {"type": "Debug", "data": {"type": "MoveToZone", "data": {
            "object_id": object_id, "to_zone": PHASE_ZONE[zone], "simulate": simulate}}})

    def play(self) -> dict[str, Any]:
        for step_index, step in enumerate(self.scenario["script"]):
            self.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.add("action_begin", action=ref)
                later: list[dict[str, Any]] = []
                combat = combat_hits_of(action, self.scenario)  # combat.py: the action is phase's combat damage
                if combat is not None:
                    later = self.combat_damage(combat, action["effect"][0]["do"] == "damage_together", ref)
                for effect in action["effect"] if combat is None else ():
                    if effect["do"] == "concede":  # the player concedes (GameAction Concede): 800.4a
                        if effect["player"] in self.left:
                            continue
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        seat = self.seat[effect["player"]]
                        events = self.apply(seat, {"type": "Concede", "data": {"player_id": seat}})
                        cut = first_sba(events)
                        self.record_events(events[:cut], {"action": ref})
                        later = events[cut:]
                        continue
                    if effect["do"] == "create_token":  # tokens.py: the token maker's ability
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        later = self.create_tokens(effect, ref)
                        continue
                    if effect["do"] == "signal":  # signals.py: a helper land played
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        later = self.phase_signal(effect["name"], ref) if effect["name"] in delayed_on_phase(
                            self.scenario) else self.scripted_signal(effect, ref, action["by"])
                        continue
                    if move_key(self.scenario, effect) is not None:  # tokens.py: the maker's "destroy all" ...
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        later = self.move_together(effect, ref)
                        continue
                    if effect["do"] == "damage":  # combat.py: noncombat damage, the source's activated ability
                        if later:
                            raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                         "one scripted action")
                        later = self.ping(effect, ref)
                        continue
                    obj = effect["object"]
                    acts = effect["do"] == "gain_control" or \
                        self.zones.get(obj) == effect["from"] and effect["from"] != effect["to"]
                    if acts and later:
                        raise EngineError("errored", "phase performed state-based actions between two effects of "
                                                     "one scripted action")
                    if effect["do"] == "gain_control":
                        self.scripted_control(effect, ref)
                    elif acts:
                        events = self.scripted_move(effect)
                        cut = first_sba(events)  # phase checks state-based actions once the action is done
                        recorded = self.record_events(events[:cut], {"action": ref})
                        if self.debug_moved:
                            self.delayed_after_debug(recorded)
                        later = events[cut:]
                self.add("action_end", action=ref)
                self.settle(later)
                if combat is not None or action["effect"] == [{"do": "signal", "name": "end_of_combat"}] \
                        and "end_of_combat" in delayed_on_phase(self.scenario):
                    self.after_combat(ref)  # combat.py: on to the second main phase
            self.add("step_advance", **{"from": step_index})
        return {"format": "trigger-conformance/trace/1", "entries": self.entries}

    def scripted_control(self, effect: dict[str, Any], ref: list[int]) -> None:
        """A scripted control change (debug ``SetController``: phase has no game action for it). phase reports no
        event for it: the action's ``control`` event is written when phase's object did change controller. Off the
        battlefield a card stays its owner's (the scenario's control change of it is an event that gives no control):
        phase, which keeps the new controller on such a card, is asked every time, and its card given back to its
        owner right after, unrecorded."""
        obj, player = effect["object"], effect["player"]
        if player in self.left:
            return  # a player who left controls nothing; phase is not asked (it would accept the seat)
        if self.zones.get(obj) == "hand":
            raise Skipped(f"phase adapter: a control change of {obj}, a card in a hand (phase puts a card onto the "
                          f"battlefield under its owner's control whoever controlled it in the hand; the scenario "
                          f"keeps the controller)")
        if self.set_controller(self.to_phase[obj], player):
            self.event("control", {"action": ref}, subject=obj, controller=player)
        if self.zones.get(obj) == "field":
            self.control[obj] = player
        elif player != self.objects[obj]["owner"]:
            self.set_controller(self.to_phase[obj], self.objects[obj]["owner"])
            self.debug_controlled.discard(self.to_phase[obj])  # phase's card is its owner's again

    def scripted_move(self, effect: dict[str, Any]) -> list[dict[str, Any]]:
        """A scripted zone change, through phase's own game action where there is one: a card entering from its
        owner's hand while that player is active and has priority with the stack empty is played as a land
        (``PlayLand``: every card is a land creature). Any other move is debug ``MoveToZone`` with ``simulate:
        true`` (phase's zone-change pipeline and printed triggers run, but phase has no game action for it); after
        one, phase chooses the targets of what it triggered only after a player received priority, which is the
        debug move's doing, not phase's rules: such a target is skipped (:meth:`pass_until_resolved`)."""
        obj = effect["object"]
        owner = self.objects[obj]["owner"]
        phase_id = self.to_phase[obj]
        if effect["to"] == "field" and phase_id in self.debug_controlled and effect["from"] != "field":
            # issue 32 item 3: off the battlefield the card is its owner's (400.7: the control change ended as it
            # left); phase keeps a debug control on the card, so it is given back to its owner before it comes back,
            # as after a scripted control change off the battlefield (scripted_control)
            self.set_controller(phase_id, owner)
            self.debug_controlled.discard(phase_id)
        if effect["to"] == "field" and phase_id in self.debug_controlled:
            raise Skipped(f"phase adapter: {obj}, given to a player by debug SetController, comes back onto the "
                          f"battlefield (phase keeps a debug control change on the card, where the scenario's control "
                          f"change ended as it left: which player phase's abilities of it serve is not the scenario's)")
        if effect["from"] == "hand" and effect["to"] == "field" and owner == self.active \
                and self.waiting == {"type": "Priority", "data": {"player": self.seat[owner]}} \
                and not self.game.stack():
            self.debug_moved = False
            return self.apply(self.seat[owner], {"type": "PlayLand", "data": {"object_id": phase_id,
                                                                              "card_id": phase_id}})
        self.debug_moved = True
        return self.debug(self.seat[self.active], phase_id, effect["to"], simulate=True)

    def settle(self, sba_events: list[dict[str, Any]]) -> None:
        """Until the stack is empty: state-based actions, waiting triggers on the stack (answering phase's ordering
        prompts), priority, and the top of the stack resolving."""
        while True:
            checked = bool(sba_events)
            pushed_early = False  # stack pushes written while answering a target prompt, before the loop's own
            if sba_events:
                self.record_sbas(sba_events, self.sba_check())
                sba_events = []
            while True:
                wait = self.waiting
                if wait["type"] == "TriggerTargetSelection":  # a target asked as the ability goes on the stack
                    if not checked:
                        self.sba_check()
                        checked = True
                    self.take_pushes()
                    pushed_early = True
                    answered = self.answer_target(wait["data"])
                    if any(e["type"] not in BOOKKEEPING for e in answered):
                        # state-based actions phase performed once the target was chosen (as after OrderTriggers)
                        self.record_sbas(answered, self.sba_check())
                    continue
                if wait["type"] != "OrderTriggers":
                    break
                # phase may ask for the order of the triggers a resolution caused before it performs the state-based
                # actions that follow it (their events come with the answer): recorded as that check
                after_order = self.answer_order(wait["data"])
                if any(e["type"] not in BOOKKEEPING for e in after_order):
                    self.record_sbas(after_order, self.sba_check())
                    checked = True
            if not checked:
                self.sba_check()
            if wait["type"] != "Priority":
                raise EngineError("errored", f"phase is waiting for {wait['type']}, which the adapter does not answer")
            before = len(self.entries)
            stack = self.take_pushes()
            if len(self.entries) > before or pushed_early:
                self.sba_check()
            self.unseen_of_departed()
            self.unseen_without_target()
            self.add("priority", player=self.players[wait["data"]["player"]])
            if not stack:
                return
            sba_events = self.resolve_top(stack[-1])

    def resolve_top(self, top: dict[str, Any]) -> list[dict[str, Any]]:
        """Every player passes; the top resolves. Returns the state-based actions phase reported once the
        resolution was over (recorded by settle()).

        What phase reports while the object resolves is recorded in phase's order. Only a final run of state-based
        action events (nothing but rule-destroyed creatures and neutral bookkeeping after them, not even phase's
        ``StackResolved``) counts as performed after the resolution; a state-based action followed by anything else
        of the resolution stays where phase put it, inside the resolution, where 704.4 forbids it. (``StackResolved``
        alone does not end the resolution: phase reports it before the effect of an optional ability whose choice
        is still pending.)"""
        trigger = self.known_stack[top["id"]]
        spec = self.spec(self.triggers[trigger])
        self.reflexive_check(spec)
        passed = self.pass_until_resolved(top, trigger)
        if passed is None:
            return []
        events, choices = passed
        cut = sba_tail(events)
        self.write_resolution(trigger, spec, events[:cut], choices)
        return events[cut:]

    def pass_until_resolved(self, top: dict[str, Any], trigger: str) \
            -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]]] | None:
        """Players pass priority, and optional choices are answered, until ``top`` (``trigger``'s stack entry) has
        left phase's stack or phase asks for what settle() answers: phase's events, and the choices made with the
        number of events before each. None when phase asked for a target before anything resolved (settle() goes
        on from there)."""
        events: list[dict[str, Any]] = []
        choices: list[tuple[int, dict[str, Any]]] = []  # (number of phase events before the choice, the choice)
        changed = False  # whether phase reported anything but priority passes since the stack was last read
        while True:
            wait = self.waiting
            if wait["type"] == "Priority":
                # the stack changes only with an event: reading it (a large document) after a mere pass is waste
                if changed:
                    if not any(s["id"] == top["id"] for s in self.game.stack()):
                        break
                    changed = False
                step = self.apply(wait["data"]["player"], {"type": "PassPriority"})
                changed = any(e["type"] != "PriorityPassed" for e in step)
                events += step
            elif wait["type"] == "OptionalEffectChoice":
                player = self.players[wait["data"]["player"]]
                use = bool(self.chooser.optional(player, self.triggers[trigger]))
                choices.append((len(events), {"player": player, "decision": "optional", "among": [trigger],
                                              "chosen": use}))
                events += self.apply(wait["data"]["player"], {"type": "DecideOptionalEffect", "data": {"accept": use}})
                changed = True
            elif wait["type"] == "OrderTriggers":
                break  # the resolution is over; new triggers wait for settle()
            elif wait["type"] == "TriggerTargetSelection" and not any(s["id"] == top["id"] for s in self.game.stack()):
                break  # the resolution is over and phase asks a target of what it triggered: settle() answers
            elif wait["type"] == "TriggerTargetSelection" and not any(
                    e["type"] not in BOOKKEEPING and e["type"] not in NEUTRAL for e in events):
                # asked after a priority pass, of an ability already on the stack, before anything resolves
                # (phase-rs/phase#1287); phase may put abilities that were still waiting on the stack with the
                # answer, and gives priority again: settle() writes that and resolves whatever is on top then.
                # After a debug move this is the move's doing (a real game action gets the target chosen first,
                # 603.3d): skipped, never reported
                if self.debug_moved:
                    raise Skipped("phase adapter: phase asked for a target after priority, following a debug zone "
                                  "move (phase has no game action for it; after a real one it chooses the target "
                                  "as the ability goes on the stack)")
                answered = self.answer_target(wait["data"])
                if any(e["type"] not in BOOKKEEPING for e in answered):
                    raise EngineError("errored", f"phase changed the game as a target was chosen: "
                                                 f"{[e['type'] for e in answered]}")
                return None
            else:
                raise EngineError("errored", f"phase is waiting for {wait['type']} while {trigger} resolves")
        return events, choices

    def write_resolution(self, trigger: str, spec: dict[str, Any], during: list[dict[str, Any]],
                         choices: list[tuple[int, dict[str, Any]]]) -> None:
        """``trigger``'s resolution written from phase's events ``during`` it and the ``choices`` made: removed (an
        illegal or missing target, 608.2b; its intervening 'if', 603.4) when phase did nothing, else its events
        and choices in phase's order between ``resolve_begin`` and ``resolve_end``."""
        target = next((e.get("target") for e in self.entries if e["kind"] == "stack_push" and e["trigger"] == trigger),
                      None) or self.chosen_targets.get(trigger)
        if target in self.left:
            raise Skipped(f"phase adapter: {trigger}'s target {target} left the game before it resolved (how phase "
                          f"removes such an ability is not mapped)")
        did_something = any(e["type"] == "EffectResolved" for e in during) or choices
        gone = target in self.objects and self.zones.get(target) != "field"  # 608.2b: no longer a legal target
        if "target" in spec and gone and not did_something and "intervening_if" in spec:
            raise Skipped(f"phase adapter: phase resolved {trigger}, whose target {target} had left the battlefield, "
                          f"doing nothing; it has an intervening 'if' too, and phase does not report which removed it")
        if "target" in spec and target is None and not did_something and "intervening_if" in spec:
            raise Skipped(f"phase adapter: phase resolved {trigger}, a targeted ability it never gave a target, doing "
                          f"nothing; it has an intervening 'if' too, and phase does not report which removed it")
        if "target" in spec and (target is None or gone) and not did_something:
            # an object target that has left the battlefield: phase reports StackResolved alone (608.2b: the ability
            # is removed and does nothing). Or phase resolved a targeted ability it never gave a target, doing
            # nothing: as an ability whose targets are all illegal; its stack_push shows no target, which
            # mtg.no-legal-target reports (violation 8)
            if any(e["type"] not in BOOKKEEPING for e in during):
                raise EngineError("errored", f"phase changed the game while removing {trigger}, which has no target: "
                                             f"{[e['type'] for e in during]}")
            self.add("removed", trigger=trigger, reason="illegal_target")
        elif "intervening_if" in spec and not did_something:
            if any(e["type"] not in BOOKKEEPING for e in during):
                raise EngineError("errored", f"phase changed the game while removing {trigger} for its intervening "
                                             f"'if': {[e['type'] for e in during]}")
            self.add("removed", trigger=trigger, reason="intervening_if")
        else:
            self.add("resolve_begin", trigger=trigger)
            start = 0
            for at, choice in choices:
                self.record_events(during[start:at], {"resolution": trigger})
                self.add("choice", **choice)
                start = at
            self.record_events(during[start:], {"resolution": trigger})
            if reflexive_victim(spec.get("effect") or []) is not None \
                    and not any(c["decision"] == "optional" and not c["chosen"] for _, c in choices):
                self.reflexive(trigger, spec)
            self.given_back(trigger, spec)  # signals.py
            self.add("resolve_end", trigger=trigger)
