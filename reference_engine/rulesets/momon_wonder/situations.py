"""The situations Momon Wonder 11.2's vocabulary can express, read from a trace (see reference_engine/core/situations.py):
what a run's scenarios must reach for every rule of 11.2 to be tried."""

from __future__ import annotations

from reference_engine.core.situations import COMMON, Situation, event_of_type
from reference_engine.core.traceview import TraceView


def _created_while_processing(view: TraceView) -> bool:
    """A Summon package created while another package is being processed (a nested package, deferred)."""
    inside = 0
    for entry in view.entries:
        kind = entry["kind"]
        if kind == "package_open":
            inside += 1
        elif kind == "package_close":
            inside -= 1
        elif kind == "package_create" and inside:
            return True
    return False


def _caused_by(cause: str):
    return lambda v: any(cause in v.events[t["event"]]["cause"] for t in v.triggers.values()
                         if t["event"] in v.events)


def _looks_back(view: TraceView) -> bool:
    """A monster's own ability triggers on its leaving play (judged just before the event)."""
    return any(t["event"] in view.events and view.events[t["event"]]["type"] in ("defeated", "leave")
               and view.events[t["event"]].get("subject") == t["source"] for t in view.triggers.values())


def _remedy_in_ability(view: TraceView) -> bool:
    """A trigger restored by the Missed Trigger Remedy while an ability resolves."""
    for trigger, i in view.trigger_index.items():
        if view.triggers[trigger].get("remedy") and any(b < i < e for _, b, e in view.resolution_spans):
            return True
    return False


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("summon-package", "a successful Effect-Based Summon creates a package", event_of_type("summon")),
    Situation("package-nested", "a Summon during a package's processing creates a package of its own",
              _created_while_processing),
    Situation("summon-failed", "an Effect-Based Summon fails", event_of_type("summon_failed")),
    Situation("snatch-check-triggers", "an event of a Snatch Check triggers an ability", _caused_by("snatch_check")),
    Situation("sbc-defeat", "State-Based Conditions defeat a monster marked for defeat", _caused_by("sbc")),
    Situation("look-back", "a monster's ability triggers on its own defeat or departure", _looks_back),
    Situation("remedy", "the Missed Trigger Remedy restores a trigger",
              lambda v: any(t.get("remedy") for t in v.triggers.values())),
    Situation("remedy-in-ability", "the Missed Trigger Remedy restores a trigger while an ability resolves",
              _remedy_in_ability),
    Situation("intervening-false", "an intervening condition no longer holds when its trigger would resolve",
              lambda v: any(v.entries[i]["reason"] == "intervening_if" for i in v.removed.values())),
)
