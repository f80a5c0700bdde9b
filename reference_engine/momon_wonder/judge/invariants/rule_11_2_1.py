"""Momon Wonder 1.0.0, rule 11.2.1: an event that satisfies a triggered ability's condition makes it trigger, and
triggering interrupts neither the event nor the ability that is resolving."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.vocabulary import ZoneTracker, active_zones, condition_holds, pattern_matches
from reference_engine.momon_wonder.judge.vocabulary import LEAVING
from reference_engine.momon_wonder.judge.observations import expected_triggers
from reference_engine.kernel.traceview import TraceView, streamed
from reference_engine.momon_wonder.judge.observations import PASSES

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.1"}


def _events_that_trigger(view: TraceView) -> int:
    return sum(1 for pairs in expected_triggers(view).values() if pairs)


@invariant(
    passes=PASSES,
    key="mw.triggers-when-satisfied",
    ruleset=RULESET,
    rules=RULE,
    summary="Each event triggers exactly the abilities whose trigger condition it satisfies.",
    exercised=_events_that_trigger,
)
def triggers_when_satisfied(view: TraceView) -> list[str]:
    """Per event. The occurrences of one event (a Summon of several monsters) are judged together, once all have
    happened, and an ability triggers once for the whole event, from the first occurrence that satisfies it (see
    observations.expected_triggers)."""
    found = []
    triggers, by_event = view.triggers, view.triggers_by_event
    for event_id, pairs in expected_triggers(view).items():
        got = [(triggers[t]["source"], triggers[t]["ability"]) for t in by_event.get(event_id, ())]
        if len(got) == len(pairs) and (not got or sorted(got) == sorted(pairs)):
            continue  # the common case, without building two Counters
        expected = Counter(pairs)
        actual = Counter(got)
        for source, ability in sorted(expected - actual):
            found.append(f"{view.describe_event(event_id)} satisfies the trigger condition of ability {ability} of "
                         f"{source}, but no trigger instance came from it")
        for source, ability in sorted(set(actual) - set(expected)):
            found.append(f"a trigger instance of ability {ability} of {source} came from {view.describe_event(event_id)}, "
                         f"{_why_not(view, event_id, source, ability)}")
    return found


def _why_not(view: TraceView, event_id: str, source: str, ability_id: str) -> str:
    """Which part of ability ``ability_id`` of ``source`` event ``event_id`` failed (its trigger condition, the zone
    its source had to be in, or its intervening 'if', judged just after the event), as the end of a sentence. Zones
    replayed from the trace up to that event (only for a fault found: not on the common path)."""
    ability = next((ab for obj in view.scenario["objects"] if obj["id"] == source for ab in obj.get("abilities", ())
                    if ab["id"] == ability_id), None)
    event = view.events[event_id]
    earlier = bool(event.get("group"))
    if ability is None:
        return "which is not an ability of that object in the scenario"
    if not pattern_matches(ability["trigger"], event, source):
        return "which does not satisfy that ability's trigger condition" + (
            " (or an earlier occurrence of the same event already did)" if earlier else "")
    tracker = ZoneTracker(view.scenario, LEAVING)
    before: dict[str, str] = {}
    for i in view.by_kind["event"]:
        moved = tracker.apply(view.entries[i])
        if view.entries[i]["id"] == event_id:
            before = moved
            break
    leaving_itself = event["type"] in LEAVING and event.get("subject") == source  # it looks back in time
    zone = before.get(source, tracker.zones.get(source)) if leaving_itself else tracker.zones.get(source)
    if zone not in active_zones(ability):
        return (f"which satisfies that ability's trigger condition, but its source was in zone {zone or 'nothing'}, "
                f"where the ability does not trigger (it triggers in {' or '.join(active_zones(ability))})")
    if not condition_holds(ability.get("intervening_if"), tracker.zones, source):
        return ("which satisfies that ability's trigger condition, but its intervening 'if' did not hold just after "
                "the event, so it does not trigger")
    if earlier:
        return "which satisfies that ability's trigger condition, but an earlier occurrence of the same event did first"
    return "which satisfies that ability's trigger condition and its intervening 'if', yet the judge expected none"


_INTERRUPTING = {"enqueue", "resolve_begin", "sbc_check", "step_begin", "step_advance", "action_begin"}


def _spans_with_triggers(view: TraceView) -> int:
    spans = [(b, e) for _, b, e in view.resolution_spans]
    begins = [i for i in view.by_kind["action_begin"]]
    ends = [i for i in view.by_kind["action_end"]]
    spans += list(zip(begins, ends))
    triggers = view.by_kind["trigger"]  # entry indexes, ascending
    # A span holds a trigger when the first trigger after its begin comes before its end (bisect: linear overall).
    return sum(1 for b, e in spans if (k := bisect_right(triggers, b)) < len(triggers) and triggers[k] < e)


@streamed("resolve_end", "action_end", "removed", *_INTERRUPTING)
def _interruptions(view: TraceView):
    """What happened inside a resolution or a scripted action that must wait until it has finished (streamed)."""
    found: list[str] = []
    open_span: tuple[str, int] | None = None

    def see(i: int, entry: dict) -> None:
        nonlocal open_span
        kind = entry["kind"]
        if kind in ("resolve_end", "action_end"):
            open_span = None
            return
        if open_span is not None and (kind in _INTERRUPTING or (kind == "removed" and entry["reason"] != "declined")):
            what, start = open_span
            detail = entry.get("trigger") or entry.get("id") or ""
            found.append(f"entry {i} ({kind} {detail}) happened while {what} (begun at entry {start}) was still being "
                         f"performed; a trigger waits until it has finished")
            open_span = None  # report each interrupted span once
            return
        if kind == "resolve_begin":
            open_span = (f"trigger {entry['trigger']} resolving", i)
        elif kind == "action_begin":
            open_span = (f"scripted action {entry['action']}", i)

    return see, lambda: found


@invariant(
    passes=(*PASSES, _interruptions),
    key="mw.no-interruption",
    ruleset=RULESET,
    rules=RULE,
    summary="Nothing is queued, resolved or checked while an action or an ability is still being performed.",
    exercised=_spans_with_triggers,
)
def no_interruption(view: TraceView) -> list[str]:
    return list(_interruptions(view))
