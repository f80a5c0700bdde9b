"""The situations Momon Wonder 11.2's vocabulary can express, read from a trace (see reference_engine/kernel/situations.py):
what a run's scenarios must reach for every rule of 11.2 to be tried."""

from __future__ import annotations

from reference_engine.kernel.situations import COMMON, Situation, event_of_type
from reference_engine.kernel.traceview import TraceView


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


def _summon_together(view: TraceView) -> bool:
    """One Summon of several monsters: one event with an occurrence per monster (a shared ``group``)."""
    return any(e["type"] == "summon" and e.get("group") and e["group"] != e["id"] for e in view.events.values())


def _summon_in_resolution(view: TraceView) -> bool:
    """A successful Summon performed by a resolving ability: its package waits for that ability to finish."""
    return any(e["type"] == "summon" and "resolution" in e["cause"] for e in view.events.values())


def _order_choice(view: TraceView) -> bool:
    """A player orders two or more of their own triggers from one event (Section 11.3 as assumed)."""
    return any(view.entries[i].get("decision") == "order" for i in view.by_kind["choice"])


def _triggered_by(event_type: str):
    return lambda v: any(t["event"] in v.events and v.events[t["event"]]["type"] == event_type
                         for t in v.triggers.values())


def _remedy_front(view: TraceView) -> bool:
    """A restored trigger put at the front of its queue (sanctioned play, 11.2.4)."""
    return any(view.entries[i].get("placement") == "front" for i in view.by_kind["enqueue"])


SITUATIONS: tuple[Situation, ...] = COMMON + (
    Situation("summon-package", "a successful Effect-Based Summon creates a package", event_of_type("summon")),
    Situation("package-nested", "a Summon during a package's processing creates a package of its own",
              _created_while_processing),
    Situation("summon-several", "one Summon of several monsters: one event, one occurrence per monster",
              _summon_together),
    Situation("summon-in-resolution", "a resolving ability summons: the package waits for the ability to finish",
              _summon_in_resolution),
    Situation("summon-failed", "an Effect-Based Summon fails", event_of_type("summon_failed")),
    Situation("summon-failed-triggers", "a failed Summon triggers an ability", _triggered_by("summon_failed")),
    Situation("snatch-check-triggers", "an event of a Snatch Check triggers an ability", _caused_by("snatch_check")),
    Situation("sbc-defeat", "State-Based Conditions defeat a monster marked for defeat", _caused_by("sbc")),
    Situation("leave-triggers", "a monster moved out of play triggers an ability", _triggered_by("leave")),
    Situation("order-choice", "a player orders two or more of their own triggers from one event", _order_choice),
    Situation("look-back", "a monster's ability triggers on its own defeat or departure", _looks_back),
    Situation("remedy", "the Missed Trigger Remedy restores a trigger",
              lambda v: any(t.get("remedy") for t in v.triggers.values())),
    Situation("remedy-front", "a restored trigger goes to the front of its queue (sanctioned play)", _remedy_front),
    Situation("remedy-in-ability", "the Missed Trigger Remedy restores a trigger while an ability resolves",
              _remedy_in_ability),
    Situation("intervening-false", "an intervening condition no longer holds when its trigger would resolve",
              lambda v: any(v.entries[i]["reason"] == "intervening_if" for i in v.unresolved.values())),
)
