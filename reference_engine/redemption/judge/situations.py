"""The situations the Redemption triggered-ability vocabulary can express, read from a trace (see
reference_engine/kernel/situations.py)."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.situations import COMMON, Situation, event_of_type, unresolved_for
from reference_engine.kernel.traceview import TraceView, memoized

IN_PLAY_OR_SET_ASIDE = ("field", "set_aside")


def _in_set_aside(view: TraceView) -> bool:
    return any(obj["zone"] == "set_aside" for obj in view.scenario["objects"]) or any(
        e.get("to") == "set_aside" for e in view.events.values())


def _mandatory_after_card_left(view: TraceView) -> bool:
    """A mandatory trigger resolving after its card left play (it persists, TA.3)."""
    for trigger, begin in view.resolve_begin.items():
        t = view.triggers[trigger]
        ability = view.ability_of(trigger) or {}
        if ability.get("optional"):
            continue
        if any(e.get("subject") == t["source"] and e["type"] == "leave" and view.event_index[e["id"]] < begin
               and view.event_index[e["id"]] > view.trigger_index[trigger] for e in view.events.values()):
            return True
    return False


@memoized
def _walk(view: TraceView) -> dict[str, Any]:
    """One pass over the trace: for each trigger instance, the step (phase) it arose in and its card's zone then;
    for each resolution, the step it began in and its card's zone then; and the negations that removed triggers
    with and without naming one ability. Zones follow the events that carry a destination (``to``)."""
    zones = {obj["id"]: obj["zone"] for obj in view.scenario["objects"]}
    step = 0
    last_event: dict[str, Any] | None = None
    found: dict[str, Any] = {"arose": {}, "began": {}, "negated_one": False, "negated_card": False}
    for entry in view.entries:
        kind = entry["kind"]
        if kind == "step_advance":  # a phase has ended (triggers waiting then activate after it)
            step += 1
        elif kind == "event":
            last_event = entry
            if entry.get("to") and entry.get("subject") in zones:
                zones[entry["subject"]] = entry["to"]
        elif kind == "trigger":
            found["arose"][entry["id"]] = (step, zones.get(entry["source"]))
        elif kind == "resolve_begin" and entry["trigger"] in view.triggers:
            found["began"][entry["trigger"]] = (step, zones.get(view.triggers[entry["trigger"]]["source"]))
        elif kind == "removed" and entry["reason"] == "negated" and last_event and last_event["type"] == "negate":
            found["negated_one" if last_event.get("ability") else "negated_card"] = True
    return found


def _carried_over(view: TraceView, card_gone: bool) -> bool:
    """A trigger activates in a later phase than the one it arose in (``card_gone``: a mandatory one whose card had
    left play and the set-aside area, which the phase's end did not lapse, option mandatory_after_phase=persist)."""
    walk = _walk(view)
    for trigger, (step, zone) in walk["began"].items():
        arose = walk["arose"].get(trigger)
        if arose is None or step <= arose[0]:
            continue
        if not card_gone or (zone not in IN_PLAY_OR_SET_ASIDE
                             and not (view.ability_of(trigger) or {}).get("optional")):
            return True
    return False


def _triggered_in_set_aside(view: TraceView) -> bool:
    """A card's ability triggers while the card is in the set-aside area (its ability works there)."""
    return any(zone == "set_aside" for _, zone in _walk(view)["arose"].values())


def _triggered_by(event_type: str):
    return lambda v: any(v.events[t["event"]]["type"] == event_type for t in v.triggers.values()
                         if t["event"] in v.events)


def _if_x_y_failed(view: TraceView) -> bool:
    return any(view.entries[i].get("condition_held") is False for i in view.by_kind["activation_begin"])


def _if_x_y_in_resolution(view: TraceView) -> bool:
    """An 'If X, Y' ability activates while a triggered ability resolves (its card played by that effect)."""
    return any(begin < i < end for i in view.by_kind["activation_begin"] for _, begin, end in view.resolution_spans)


def _optional_activates(view: TraceView) -> bool:
    return any((view.ability_of(t) or {}).get("optional") for t in view.resolve_begin if t in view.triggers)


def _own_order_mixed(view: TraceView) -> bool:
    """A player orders simultaneous triggers of their own, mandatory and optional together."""
    for i in view.by_kind["choice"]:
        entry = view.entries[i]
        if entry.get("decision") != "order":
            continue
        kinds = {bool((view.ability_of(t) or {}).get("optional")) for t in entry.get("among", ()) if t in view.triggers}
        if kinds == {True, False}:
            return True
    return False


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("negation", "a pending trigger is negated", unresolved_for("negated")),
    Situation("lapse", "a pending mandatory trigger lapses when the phase ends", unresolved_for("expired")),
    Situation("card-left-ends", "a trigger whose card specifies it ends once the card is gone", unresolved_for("card_left")),
    Situation("optional-card-gone", "an optional trigger whose card is gone (or not controlled) when its turn comes",
              unresolved_for("source_gone")),
    Situation("mandatory-after-card-left", "a mandatory trigger resolves after its card left play",
              _mandatory_after_card_left),
    Situation("control-change", "a card changes controller", event_of_type("control")),
    Situation("set-aside", "a card is in, or goes to, the set-aside area", _in_set_aside),
    Situation("if-x-y", "an 'If X, Y' ability checks its condition as its card is played",
              lambda v: bool(v.by_kind["activation_begin"])),
    Situation("phase-end", "a phase ends with triggers pending", event_of_type("end_phase")),
    Situation("negate-one-ability", "negating one ability of a card removes a pending trigger of it",
              lambda v: _walk(v)["negated_one"]),
    Situation("negate-whole-card", "negating a whole card removes a pending trigger of it",
              lambda v: _walk(v)["negated_card"]),
    Situation("control-trigger", "an ability triggers on a change of control", _triggered_by("control")),
    Situation("leave-trigger", "an ability triggers on a card leaving play", _triggered_by("leave")),
    Situation("play-trigger", "an ability triggers on a card being played", _triggered_by("play")),
    Situation("set-aside-triggers", "a card in the set-aside area triggers (its ability works there)",
              _triggered_in_set_aside),
    Situation("if-x-y-fails", "an 'If X, Y' ability whose condition does not hold when its card is played",
              _if_x_y_failed),
    Situation("if-x-y-in-resolution", "an 'If X, Y' ability activates while a triggered ability resolves (its "
              "card played by that ability)", _if_x_y_in_resolution),
    Situation("optional-activates", "an optional trigger activates", _optional_activates),
    Situation("mixed-own-order", "a player orders their own simultaneous mandatory and optional triggers together",
              _own_order_mixed),
    Situation("carried-over", "a trigger activates in a later phase than the one it arose in",
              lambda v: _carried_over(v, card_gone=False)),
    Situation("persists-past-phase", "a mandatory trigger whose card is gone waits past its phase's end and "
              "activates in the next phase (option mandatory_after_phase=persist)",
              lambda v: _carried_over(v, card_gone=True)),
)
