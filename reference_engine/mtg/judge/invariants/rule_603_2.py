"""MTG 603.2: an ability triggers whenever an event matches its trigger condition, once per occurrence (603.2c),
judged on the game just after the event (603.6a: permanents entering together see each other; 603.10); 603.2g:
an event that was prevented or replaced triggers nothing. With them: a "one or more" ability triggers once per
event (603.2c), an effect can make an ability of a permanent trigger additional times (603.2d), a "do this only once
each turn" ability triggers only until its controller has taken the action that turn (603.2h), an ability that
"triggers only once each turn" triggers once each turn for each object its source is (400.7), and a triggered
ability that resolves is itself an event abilities may watch (``resolved``). An ability triggers as its event
happens (603.2, 603.10): its trigger is written right after that event, not after the whole action or resolution."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import (
    PROGRESS_KINDS, catalog, compare_triggers, describe, ended_before, expected_triggers, first_after, replay,
    specs,
)
from reference_engine.mtg.judge.model import looks_back
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized


@memoized
def _ordinary_events(view: TraceView) -> list[str]:
    return [e["id"] for g in replay(view).groups for e in g.events
            if not looks_back(e) and not e.get("prevented")]


@invariant(
    passes=PASSES,
    key="mtg.triggers-when-satisfied",
    ruleset="mtg",
    rules={"2026-02-27": "603.2c", "2021-02-24": "603.2c"},
    summary="Each event (other than one that looks back in time) triggers exactly the abilities whose trigger "
    "condition it matches just after it happened, once per occurrence (a 'one or more' ability once per event), "
    "plus any additional times (603.2d), a 'do this only once each turn' ability only until its action is taken "
    "(603.2h); a triggered ability resolving is such an event. Every trigger is announced as its event happens, "
    "before the next event, never once the whole action or resolution is over.",
    exercised=lambda view: sum(1 for e in _ordinary_events(view) if expected_triggers(view).get(e)),
)
def triggers_when_satisfied(view: TraceView) -> list[str]:
    return compare_triggers(view, _ordinary_events(view)) + resolved_events(view) + announced_late(view)


def announced_late(view: TraceView) -> list[str]:
    """603.2 and 603.10: an ability triggers as its event happens, judged on the game just after it (just before it,
    for one that looks back): not once the whole action or resolution is over, when a later event of it may have
    changed the game. So a trace shows each trigger of an object ability or a delayed ability right after the group
    of its trigger event, before the game moves on (another event, a push, a resolution, a removal, a state-based
    actions check, a delayed ability created...); only other triggers, choices and delayed abilities ending may come
    between. A state trigger (603.8) and a reflexive ability (603.12, triggering as it is created) are dated by their
    own entry and are not concerned. A trigger missing altogether is :func:`compare_triggers`' business."""
    found: list[str] = []
    group_of, made_by_kind = replay(view).group_of, catalog(view).made_by_kind
    progress, table = view.indexes_of(*PROGRESS_KINDS), specs(view)
    for t, trig in view.triggers.items():
        group = group_of.get(trig["event"]) if trig["event"] is not None else None
        spec = table.get(t)
        if group is None or spec is None or spec["trigger"]["event"] == "state":
            continue
        if "delayed" in trig and made_by_kind.get(trig["ability"]) == "reflexive":
            continue
        own = view.trigger_index[t]
        moved_on = first_after(progress, group.last)
        if moved_on is not None and group.last < moved_on < own:
            found.append(f"{describe(view, t)} is written at entry {own}, after the game moved on from its event "
                         f"(entry {moved_on}, {view.entries[moved_on]['kind']}): an ability triggers as its event "
                         f"happens (603.2, 603.10), so its trigger comes right after that event, not once the whole "
                         f"action or resolution is over")
    return found


def resolved_events(view: TraceView) -> list[str]:
    """The trigger events of abilities that trigger on an ability resolving: when some ability watches for them,
    each triggered ability that resolves (resolve_end; a declined optional one resolves too, one removed from the
    stack does not) is one ``resolved`` event, with cause ``{resolved: T}``, its source as subject and its controller
    as player, after its resolve_end; and there is no other."""
    found = []
    resolved_ends = {view.entries[i]["trigger"]: i for i in view.by_kind["resolve_end"]}
    for i in view.by_kind["event"]:
        event = view.entries[i]
        cause = event["cause"]
        if event["type"] == "resolved" and "resolved" not in cause:
            found.append(f"event {event['id']} says an ability resolved, but names no resolution as its cause")
        elif "resolved" in cause and (event["type"] != "resolved" or cause["resolved"] not in resolved_ends
                                      or resolved_ends[cause["resolved"]] > i):
            found.append(f"event {event['id']} ({event['type']}) is put down to trigger {cause['resolved']} having "
                         "resolved, which it had not")
    if not catalog(view).hears_resolving:
        return found
    for t, end in resolved_ends.items():
        trig = view.triggers.get(t)
        got = view.events_by_cause.get(("resolved", t), ())
        if trig is None or ended_before(view, end):
            continue
        right = [e for e in got if e["type"] == "resolved" and e.get("subject") == trig["source"]
                 and e.get("player") == trig["controller"]]
        if len(right) != 1 or len(got) != 1:
            found.append(f"trigger {t} resolved (entry {end}): that is one 'resolved' event with subject "
                         f"{trig['source']} and player {trig['controller']}, but the trace has "
                         f"{[e['id'] for e in got] or 'none'}")
    return found


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
