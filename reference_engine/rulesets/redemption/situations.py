"""The situations the Redemption triggered-ability vocabulary can express, read from a trace (see
reference_engine/core/situations.py)."""

from __future__ import annotations

from reference_engine.core.situations import COMMON, Situation, event_of_type, removed_for
from reference_engine.core.traceview import TraceView


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


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("negation", "a pending trigger is negated", removed_for("negated")),
    Situation("lapse", "a pending mandatory trigger lapses when the phase ends", removed_for("expired")),
    Situation("card-left-ends", "a trigger whose card specifies it ends once the card is gone", removed_for("card_left")),
    Situation("optional-card-gone", "an optional trigger whose card is gone (or not controlled) when its turn comes",
              removed_for("source_gone")),
    Situation("mandatory-after-card-left", "a mandatory trigger resolves after its card left play",
              _mandatory_after_card_left),
    Situation("control-change", "a card changes controller", event_of_type("control")),
    Situation("set-aside", "a card is in, or goes to, the set-aside area", _in_set_aside),
    Situation("if-x-y", "an 'If X, Y' ability checks its condition as its card is played",
              lambda v: bool(v.by_kind["activation_begin"])),
    Situation("phase-end", "a phase ends with triggers pending", event_of_type("end_phase")),
)
