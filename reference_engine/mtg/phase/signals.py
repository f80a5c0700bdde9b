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
may leave the game (the land would leave with them)."""

from __future__ import annotations

import re
from typing import Any

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.events import first_sba

SIGNAL_PREFIX = "Conformance signal "
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def signal_land(name: str) -> str:
    if not NAME.match(name):
        raise Skipped(f"phase adapter: signal name {name!r} is not rendered as a card name")
    return SIGNAL_PREFIX + name


def render_signal(trigger: dict[str, Any]) -> str:
    """A trigger on a named signal: "Whenever a player plays a land named Conformance signal <name>"."""
    if set(trigger) != {"event", "name"}:
        raise Skipped(f"phase adapter: a signal trigger with fields {sorted(set(trigger) - {'event', 'name'})} is "
                      f"not rendered (a land play is any player's, about no object)")
    return f"Whenever a player plays a land named {signal_land(trigger['name'])}"


def scripted_signals(scenario: dict[str, Any]) -> list[str]:
    """The names of the script's signals, one per occurrence (each is a helper land of its own)."""
    return [e["name"] for step in scenario["script"] for action in step["actions"] for e in action["effect"]
            if e.get("do") == "signal"]


def check_signals(scenario: dict[str, Any], texts: list[str]) -> None:
    """Raise Skipped unless the script's signals are rendered: a signal about no object, no rendered text naming
    permanents, the active player never conceding."""
    if not scripted_signals(scenario):
        return
    for step in scenario["script"]:
        for action in step["actions"]:
            for e in action["effect"]:
                if e.get("do") == "signal" and set(e) != {"do", "name"}:
                    raise Skipped(f"phase adapter: a scripted signal with {sorted(set(e) - {'do', 'name'})} is not "
                                  f"rendered (the land played is about no object)")
                if e.get("do") == "signal":
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

    def scripted_signal(self, effect: dict[str, Any], ref: list[int]) -> list[dict[str, Any]]:
        """Play the next helper land of the signal; write the action's ``signal`` event. Returns the state-based
        action events phase reported after it (settle() records them)."""
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
