"""The situations the MTG vocabulary can express, read from a trace (see reference_engine/core/situations.py)."""

from __future__ import annotations

from typing import Any, Iterator

from reference_engine.core.situations import COMMON, Situation, event_of_type, removed_for
from reference_engine.core.traceview import TraceView


def _created(view: TraceView, reflexive: bool) -> list[dict[str, Any]]:
    return [view.entries[i] for i in view.by_kind["delayed_create"] if bool(view.entries[i].get("reflexive")) == reflexive]


def _fired(view: TraceView, reflexive: bool) -> bool:
    created = {d["id"] for d in _created(view, reflexive)}
    return any(t.get("delayed") in created for t in view.triggers.values())


def _controller(view: TraceView, obj: str) -> str | None:
    found = view.objects.get(obj)
    return found.get("controller", found["owner"]) if found else None


def _inline_abilities(value: Any) -> Iterator[dict[str, Any]]:
    """Abilities written inside effects (the delayed and reflexive abilities an effect creates)."""
    if isinstance(value, dict):
        if value.get("do") in ("create_delayed", "reflexive") and isinstance(value.get("ability"), dict):
            yield value["ability"]
        for v in value.values():
            yield from _inline_abilities(v)
    elif isinstance(value, list):
        for v in value:
            yield from _inline_abilities(v)


def _intervening_on(kind: str):
    def occurs(view: TraceView) -> bool:
        if kind == "state":
            abilities = [a for a in view.abilities.values() if a["trigger"]["event"] == "state"]
        else:
            abilities = list(_inline_abilities(view.scenario))
        ids = {a["id"] for a in abilities if a.get("intervening_if")}
        return any(t["ability"] in ids for t in view.triggers.values())
    return occurs


def _state_trigger(view: TraceView) -> bool:
    states = {a["id"] for a in view.abilities.values() if a["trigger"]["event"] == "state"}
    return any(t["ability"] in states for t in view.triggers.values())


def _look_back(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "leave"
               and view.events[t["event"]].get("subject") == t["source"] for t in view.triggers.values())


def _from_graveyard(view: TraceView) -> bool:
    return any("graveyard" in (view.ability_of(t) or {}).get("active_in", ()) for t in view.triggers)


def _enters_mid_resolution(view: TraceView) -> bool:
    return any(e["type"] == "enter" and "resolution" in e["cause"] for e in view.events.values())


def _on_triggering(view: TraceView) -> bool:
    return any(t["event"] in view.events and view.events[t["event"]]["type"] == "ability_triggered"
               for t in view.triggers.values())


def _sba_triggers(view: TraceView) -> bool:
    return any(t["event"] in view.events and "sba" in view.events[t["event"]]["cause"] for t in view.triggers.values())


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("no-legal-target", "a trigger with no legal target as it would go on the stack", removed_for("no_target")),
    Situation("target-gone", "a trigger's target is illegal when it resolves", removed_for("illegal_target")),
    Situation("delayed-created", "a delayed triggered ability is created", lambda v: bool(_created(v, False))),
    Situation("delayed-fires", "a delayed triggered ability triggers", lambda v: _fired(v, False)),
    Situation("delayed-other-controller", "a delayed triggered ability whose controller is not its source's controller",
              lambda v: any(d["controller"] != _controller(v, d["source"]) for d in _created(v, False))),
    Situation("reflexive", "a reflexive triggered ability triggers", lambda v: _fired(v, True)),
    Situation("state-trigger", "a state trigger triggers", _state_trigger),
    Situation("intervening-on-delayed", "a delayed or reflexive ability with an intervening 'if' triggers",
              _intervening_on("delayed")),
    Situation("intervening-on-state", "a state trigger with an intervening 'if' triggers", _intervening_on("state")),
    Situation("intervening-false", "an intervening 'if' is false on resolution", removed_for("intervening_if")),
    Situation("control-change", "a permanent changes controller", event_of_type("control")),
    Situation("look-back", "a permanent's ability triggers on its own leaving the battlefield", _look_back),
    Situation("from-graveyard", "an ability that works from a graveyard triggers", _from_graveyard),
    Situation("enters-mid-resolution", "a permanent enters the battlefield while an ability resolves",
              _enters_mid_resolution),
    Situation("player-leaves", "a player leaves the game", event_of_type("player_leaves")),
    Situation("trigger-on-trigger", "an ability triggers on another ability triggering (603.3b's second pass)",
              _on_triggering),
    Situation("sba-triggers", "a state-based action's event triggers an ability", _sba_triggers),
)
