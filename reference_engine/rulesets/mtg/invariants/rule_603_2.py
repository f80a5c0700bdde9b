"""MTG 603.2: an ability triggers whenever an event matches its trigger condition, once per occurrence (603.2c),
judged on the game just after the event (603.6a: permanents entering together see each other; 603.10); 603.2g:
an event that was prevented or replaced triggers nothing."""

from __future__ import annotations

from reference_engine.core.invariant import invariant
from reference_engine.rulesets.mtg.observations import catalog, compare_triggers, expected_triggers, replay
from reference_engine.rulesets.mtg.model import looks_back
from reference_engine.rulesets.mtg.observations import PASSES
from reference_engine.core.traceview import TraceView


def _ordinary_events(view: TraceView) -> list[str]:
    return [e["id"] for g in replay(view).groups for e in g.events
            if not looks_back(e) and not e.get("prevented")]


@invariant(
    passes=PASSES,
    key="mtg.triggers-when-satisfied",
    ruleset="mtg",
    rules={"2026-02-27": "603.2c", "2021-02-24": "603.2c"},
    summary="Each event (other than one that looks back in time) triggers exactly the abilities whose trigger "
    "condition it matches just after it happened, once per occurrence.",
    exercised=lambda view: sum(1 for e in _ordinary_events(view) if expected_triggers(view).get(e)),
)
def triggers_when_satisfied(view: TraceView) -> list[str]:
    return compare_triggers(view, _ordinary_events(view))


def _would_match(view: TraceView, event: dict) -> bool:
    unprevented = {k: v for k, v in event.items() if k != "prevented"}
    return any(catalog(view).fits(ability["trigger"], unprevented, source)
               for source, ability in catalog(view).listeners.get(event["type"], ()))


@invariant(
    passes=PASSES,
    key="mtg.prevented-no-trigger",
    ruleset="mtg",
    rules={"2026-02-27": "603.2g", "2021-02-24": "603.2"},
    summary="A prevented or replaced event triggers nothing.",
    exercised=lambda view: sum(1 for i in view.by_kind["event"] if view.entries[i].get("prevented")
                               and _would_match(view, view.entries[i])),
)
def prevented_no_trigger(view: TraceView) -> list[str]:
    found = []
    for i in view.by_kind["event"]:
        event = view.entries[i]
        if event.get("prevented"):
            for t in view.triggers_by_event.get(event["id"], ()):
                found.append(f"trigger {t} (ability {view.triggers[t]['ability']} of {view.triggers[t]['source']}) "
                             f"came from {view.describe_event(event['id'])}, which was prevented")
    return found
