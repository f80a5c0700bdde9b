"""Named signals (issue 32 item 3): a scenario's named signal (a step, an attack, "becomes untapped": an event of the
game that the MTG vocabulary names without modelling it) is rendered as a land play, an event phase.rs has a game
action and a trigger for. The active player's deck holds a helper land per scripted signal, a plain land named
``Conformance signal <name>`` (no scenario object, no abilities); an ability triggering on the signal reads "Whenever
a player plays a land named Conformance signal <name>" (phase's ``LandPlayed`` trigger with a ``Named`` filter); the
scripted signal is that land played from the active player's hand (``PlayLand``, a real game action, in the main
phase with the stack empty, so phase chooses targets as the abilities go on the stack, 603.3d). The land's
``ZoneChanged`` and ``LandPlayed`` are written as the action's one ``signal`` event (name, the active player); phase's
trigger event ``LandPlayed`` of that land names it. The land is a noncreature permanent nothing else sees: a scenario
whose rendered text names "permanents" (which would see it enter) is skipped, and so is one where the active player
may leave the game (the land would leave with them).

Two signals are phase's own steps (:data:`PHASE_SIGNALS`): ``end_step`` and ``end_of_combat``, where a delayed
ability waits for one ("At the beginning of the next end step, ...", "At end of combat, ...": phase's ``AtNextPhase``
delayed trigger, issue 32 item 3). The signal is then no land but that step of the turn itself, reached by every
player passing priority with the stack empty (real game actions): the end step as the script's last action, the end
of combat right after the script's combat (combat.py); its ``signal`` event is phase's ``PhaseChanged`` to that
step, which the delayed ability names."""

from __future__ import annotations

import re
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import NEUTRAL, first_sba

SIGNAL_PREFIX = "Conformance signal "
END_STEP = "end_step"
# signal -> (phase's step, the delayed ability's words): the signals a delayed ability waiting for is phase's step
PHASE_SIGNALS = {END_STEP: ("End", "at the beginning of the next end step"),
                 "end_of_combat": ("EndCombat", "at end of combat")}
# what phase reports as every player passes with the stack empty, from the main phase to the end step (no attack)
TO_END_STEP = frozenset({"PriorityPassed", "PhaseChanged", "AttackersDeclared"})
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def signal_land(name: str) -> str:
    if not NAME.match(name):
        raise Skipped(f"phase adapter: signal name {name!r} is not rendered as a card name")
    return SIGNAL_PREFIX + name


# A signal so named is a card drawn by the player giving it (issue 31's that_player word: "whenever an opponent draws
# a card ... to them"): phase's own draw, the token maker's "{0}: Draw a card." or "{0}: Each opponent draws a card."
# activated by the active player (the drawer the active player or, in a two-player game, the other), from a filler
# card placed in the drawer's library; phase's ``Drawn`` trigger, "Whenever [a player | an opponent] draws a card",
# and "deals N damage to that player" (``TriggeringPlayer``, the drawer).
DRAWS = frozenset({"draw", "draws"})
DRAW_LINES = ("{0}: Draw a card.", "{0}: Each opponent draws a card.")
FILLER = "Conformance filler"


def draw_signals(scenario: dict[str, Any]) -> list[str]:
    """The players drawing by the script's draw signals (:data:`DRAWS`), one per draw, in the script's order."""
    return [action["by"] for step in scenario["script"] for action in step["actions"] for e in action["effect"]
            if e.get("do") == "signal" and e.get("name") in DRAWS]


def check_draws(scenario: dict[str, Any]) -> None:
    """Raise Skipped unless the script's draws and "that player" damage are rendered (see :data:`DRAWS`)."""
    active, draws = scenario["active_player"], draw_signals(scenario)
    if any(p != active for p in draws) and len(scenario["players"]) != 2:
        raise Skipped("phase adapter: a draw by another player than the active one is rendered in a two-player game "
                      "only (\"each opponent draws a card\")")
    abilities = [a for o in scenario["objects"] for a in o.get("abilities", ())]
    if draws and any(a["trigger"].get("event") in ("zone_change", "move") for a in abilities):
        raise Skipped("phase adapter: a zone change trigger would see the draw's filler card move")
    for a in abilities:
        if any(e.get("do") == "damage" and e.get("that_player") for e in a.get("effect", ())) \
                and (a["trigger"].get("event") != "signal" or a["trigger"].get("name") not in DRAWS):
            raise Skipped("phase adapter: damage to \"that player\" is rendered on a draw only (phase's "
                          "TriggeringPlayer)")


def render_signal(trigger: dict[str, Any]) -> str:
    """A trigger on a named signal: "Whenever a player plays a land named Conformance signal <name>"; on a draw
    (:data:`DRAWS`) "Whenever [a player | an opponent] draws a card"."""
    if trigger.get("name") in DRAWS and set(trigger) - {"player"} == {"event", "name"} \
            and trigger.get("player") in (None, "opponent"):
        return f"Whenever {'an opponent' if trigger.get('player') else 'a player'} draws a card"
    if set(trigger) != {"event", "name"}:
        raise Skipped(f"phase adapter: a signal trigger with fields {sorted(set(trigger) - {'event', 'name'})} is "
                      f"not rendered (a land play is any player's, about no object)")
    return f"Whenever a player plays a land named {signal_land(trigger['name'])}"


def delayed_on_phase(scenario: dict[str, Any]) -> set[str]:
    """The :data:`PHASE_SIGNALS` a delayed ability of ``scenario`` triggers on (each then phase's step itself, not a
    helper land)."""
    def made(effect: list[dict[str, Any]]) -> set[str]:
        return {a["ability"]["trigger"]["name"] for a in effect if a.get("do") == "create_delayed"
                and (a["ability"].get("trigger") or {}).get("event") == "signal"
                and a["ability"]["trigger"].get("name") in PHASE_SIGNALS} | {
            n for a in effect if a.get("do") in ("create_delayed", "reflexive") for n in made(a["ability"]["effect"])}
    return {n for o in scenario["objects"] for a in o.get("abilities", ()) for n in made(a.get("effect") or [])}


def returned_to_you(effect: list[dict[str, Any]], obj: dict[str, Any]) -> bool:
    """Whether ``effect`` is a card returned from a graveyard to the battlefield, then given to the controller of
    ``obj`` ("return ... to the battlefield under your control", issue 32 item 3)."""
    return len(effect) == 2 and effect[0].get("do") == "move" and effect[0].get("from") == "graveyard" \
        and effect[0].get("to") == "field" and effect[1] == {"do": "gain_control", "object": effect[0]["object"],
                                                             "player": obj.get("controller", obj["owner"])}


def end_step_delayed(action: dict[str, Any], obj: dict[str, Any]) -> bool:
    """Whether ``action`` (a ``create_delayed`` of an ability of ``obj``) is rendered as phase's "at the beginning of
    the next end step, [if ...,] ..." or "at end of combat, ...": once, on a signal of :data:`PHASE_SIGNALS`, one
    instruction or :func:`returned_to_you`."""
    made = action["ability"]
    trigger = made.get("trigger") or {}
    return set(trigger) == {"event", "name"} and trigger["event"] == "signal" and trigger["name"] in PHASE_SIGNALS \
        and "duration" not in action \
        and set(made) - {"text", "intervening_if"} == {"id", "trigger", "effect"} \
        and (len(made["effect"]) == 1 or returned_to_you(made["effect"], obj))


def scripted_signals(scenario: dict[str, Any]) -> list[str]:
    """The names of the script's signals played as helper lands, one per occurrence (each a land of its own): all
    but the steps phase reaches itself (:func:`delayed_on_phase`)."""
    real = delayed_on_phase(scenario)
    return [e["name"] for step in scenario["script"] for action in step["actions"] for e in action["effect"]
            if e.get("do") == "signal" and e["name"] not in real and e["name"] not in DRAWS]


def check_end_step(scenario: dict[str, Any]) -> None:
    """Where a delayed ability waits for a step of :data:`PHASE_SIGNALS`, raise Skipped unless the script's one
    signal of it is an action alone: the end step the script's last (phase's turn has one, after which the script
    has nothing left to do), the end of combat right after the script's combat; and no printed ability triggers on
    that signal."""
    actions = [a for step in scenario["script"] for a in step["actions"]]
    for name in delayed_on_phase(scenario):
        alone = [n for n, a in enumerate(actions) if a["effect"] == [{"do": "signal", "name": name}]]
        signals = [e for a in actions for e in a["effect"] if e.get("do") == "signal" and e.get("name") == name]
        at = len(actions) - 1 if name == END_STEP else next(
            (n + 1 for n, a in enumerate(actions) if any(e.get("do") in ("damage", "damage_together")
                                                        for e in a["effect"])), -1)
        if len(signals) != 1 or alone != [at]:
            raise Skipped(f"phase adapter: a delayed ability waits for {name}, which is rendered only as an action "
                          f"alone, the script's last action (the end step) or right after its combat (phase's step)")
        if any(a["trigger"].get("event") == "signal" and a["trigger"].get("name") == name
               for o in scenario["objects"] for a in o.get("abilities", ())):
            raise Skipped(f"phase adapter: a printed ability triggers on {name} where a delayed one waits for it")


def check_signals(scenario: dict[str, Any], texts: list[str]) -> None:
    """Raise Skipped unless the script's signals are rendered: a signal about no object, no rendered text naming
    permanents, the active player never conceding."""
    check_end_step(scenario)
    check_draws(scenario)
    if not scripted_signals(scenario):
        return
    for step in scenario["script"]:
        for action in step["actions"]:
            for e in action["effect"]:
                if e.get("do") == "signal" and set(e) != {"do", "name"}:
                    raise Skipped(f"phase adapter: a scripted signal with {sorted(set(e) - {'do', 'name'})} is not "
                                  f"rendered (the land played is about no object)")
                if e.get("do") == "signal" and e["name"] in scripted_signals(scenario):
                    signal_land(e["name"])
                if e.get("do") == "concede" and e.get("player") == scenario["active_player"]:
                    raise Skipped("phase adapter: the active player concedes where a signal's helper land is theirs")
    if any(re.search(r"\bpermanents?\b", t) for t in texts):
        raise Skipped("phase adapter: a trigger on permanents would see a signal's helper land enter")


def land_face(name: str) -> dict[str, Any]:
    return {"name": name, "manaCost": "", "manaValue": 0.0, "types": ["Land"], "supertypes": [], "subtypes": [],
            "text": "", "type": "Land", "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [],
            "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [], "rulings": []}


class Signals:
    """Scripted signals for a :class:`~reference_engine.mtg.phase.play.Play` (a mixin)."""

    def phase_signal(self, name: str, ref: list[int]) -> list[dict[str, Any]]:
        """The scripted signal ``name`` (:data:`PHASE_SIGNALS`) where a delayed ability waits for it: every player
        passes priority with the stack empty until phase's turn reaches that step (no attack declared on the way);
        the ``signal`` event is written at phase's ``PhaseChanged`` to it. Returns the events phase reported after
        it."""
        seat, step = self.seat[self.active], PHASE_SIGNALS[name][0]
        if self.waiting != {"type": "Priority", "data": {"player": seat}} or self.game.stack():
            raise Skipped(f"phase adapter: {name} is reached when the active player does not have priority with the "
                          f"stack empty")
        events: list[dict[str, Any]] = []
        while not any(e["type"] == "PhaseChanged" and (e.get("data") or {}).get("phase") == step for e in events):
            if self.waiting["type"] != "Priority" or self.game.stack():
                raise Skipped(f"phase adapter: phase waits for {self.waiting['type']} on the way to {name}")
            events += self.apply(self.waiting["data"]["player"], {"type": "PassPriority"})
        at = next(n for n, e in enumerate(events) if e["type"] == "PhaseChanged" and e["data"]["phase"] == step)
        odd = [e["type"] for e in events[:at] if e["type"] not in TO_END_STEP
               or e["type"] == "AttackersDeclared" and e["data"].get("attacker_ids")]
        if odd:
            raise Skipped(f"phase adapter: phase reported {odd} on the way to {name}")
        if any(e["type"] not in NEUTRAL for e in events[at + 1:]):
            raise Skipped(f"phase adapter: phase reported {[e['type'] for e in events[at + 1:]]} as {name} began")
        self.phase_events[step] = self.event("signal", {"action": ref}, name=name, player=self.active)["id"]
        return []

    def given_back(self, trigger: str, spec: dict[str, Any]) -> None:
        """After ``trigger`` resolved (ability ``spec``): a card :func:`returned_to_you` entered under its new
        controller in one event (phase's ``enters_under``); the instruction giving it is written as its ``control``
        event, after the entry, when phase's object entered in the resolution and is that player's."""
        source = self.objects[self.triggers[trigger]["source"]]
        if not returned_to_you(spec.get("effect") or [], source):
            return
        card, player = spec["effect"][1]["object"], spec["effect"][1]["player"]
        entered = any(e["kind"] == "event" and e["cause"] == {"resolution": trigger} and e["type"] == "enter"
                      and e.get("subject") == card for e in self.entries)
        if entered and self.game.object(self.to_phase[card])["controller"] == self.seat[player]:
            self.event("control", {"resolution": trigger}, subject=card, controller=player)
            self.control[card] = player

    def draw_signal(self, effect: dict[str, Any], ref: list[int], by: str) -> list[dict[str, Any]]:
        """A draw (:data:`DRAWS`) by ``by``: the token maker's draw ability activated and resolved; the filler card's
        move to the hand and phase's ``CardDrawn`` are written as the action's ``signal`` event (name, ``by``).
        Returns the state-based action events phase reported after it."""
        if by in self.left:
            raise Skipped(f"phase adapter: {by} draws after leaving the game")
        events = self.activate_maker(self.maker_base + (by != self.active), "a card is drawn")
        drawn = [e["data"]["object_id"] for e in events if e["type"] == "CardDrawn"]
        if len(drawn) != 1 or drawn[0] not in self.fillers or \
                next(e for e in events if e["type"] == "CardDrawn")["data"]["player_id"] != self.seat[by]:
            raise EngineError("errored", f"phase's draw for {by} drew {drawn}, not one filler card")
        own = [e for e in events if (e.get("data") or {}).get("object_id") == drawn[0]
               or e["type"] == "PlayerPerformedAction" and e["data"].get("action") == "Draw"]
        if [e["type"] for e in own] != ["ZoneChanged", "CardDrawn", "PlayerPerformedAction"]:
            raise EngineError("errored", f"phase drew for {by} as {[e['type'] for e in own]}")
        self.signal_events[drawn[0]] = self.event("signal", {"action": ref}, name=effect["name"], player=by)["id"]
        rest = [e for e in events if e not in own]
        cut = first_sba(rest)
        self.record_events(rest[:cut], {"action": ref})
        return rest[cut:]

    def scripted_signal(self, effect: dict[str, Any], ref: list[int], by: str) -> list[dict[str, Any]]:
        """Play the next helper land of the signal (a draw: :meth:`draw_signal`); write the action's ``signal``
        event. Returns the state-based action events phase reported after it (settle() records them)."""
        if effect["name"] in DRAWS:
            return self.draw_signal(effect, ref, by)
        seat = self.seat[self.active]
        lands = self.signal_lands.get(signal_land(effect["name"])) or []
        if not lands:
            raise EngineError("errored", f"no helper land is left for signal {effect['name']!r}")
        if self.waiting != {"type": "Priority", "data": {"player": seat}} or self.game.stack():
            raise Skipped("phase adapter: a signal is sent when the active player does not have priority with the "
                          "stack empty (its helper land is played then)")
        land = lands.pop(0)
        events = self.apply(seat, {"type": "PlayLand", "data": {"object_id": land, "card_id": land}})
        own = [e for e in events if (e.get("data") or {}).get("object_id") == land]
        if [e["type"] for e in own] != ["ZoneChanged", "LandPlayed"]:
            raise EngineError("errored", f"phase played signal land {effect['name']!r} as {[e['type'] for e in own]}")
        self.signal_events[land] = self.event("signal", {"action": ref}, name=effect["name"],
                                              player=self.active)["id"]
        rest = [e for e in events if e not in own]
        cut = first_sba(rest)
        self.record_events(rest[:cut], {"action": ref})
        return rest[cut:]
