"""What the MTG invariants observe in a trace, derived from the trace alone and computed once per trace.

``replay`` walks the entries once, moving a :class:`State` along the events: it yields the groups of simultaneous
events with the game just before and just after each, and the game as it stood at every entry where a rule looks
at it (a stack push, a resolution, a state-based actions check, a trigger, a delayed ability's creation).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

from reference_engine.core.choices import ScenarioChooser
from reference_engine.rulesets.mtg.model import Catalog, State
from reference_engine.core.traceview import TraceView, memoized

SNAPSHOT_KINDS = frozenset({"stack_push", "resolve_begin", "removed", "sba_check", "trigger", "delayed_create",
                            "priority"})
RESOLUTION_REMOVALS = frozenset({"intervening_if", "illegal_target"})
# Entries that show the game has moved on: a trigger that had to appear "at once" must come before them.
PROGRESS_KINDS = frozenset({"event", "stack_push", "resolve_begin", "resolve_end", "removed", "priority", "sba_check",
                            "step_begin", "step_advance", "action_begin", "action_end", "delayed_create"})


@dataclass
class Group:
    """Simultaneous events (one event with several occurrences, or one alone), entries ``first``..``last``."""

    events: list[dict[str, Any]]
    first: int
    last: int
    before: State
    after: State


@dataclass
class Replay:
    groups: list[Group]
    group_of: dict[str, Group]  # event id -> its group
    at: dict[int, State]  # entry index -> the game just before that entry (SNAPSHOT_KINDS only)
    final: State


@memoized
def catalog(view: TraceView) -> Catalog:
    return Catalog(view.scenario)


@memoized
def chooser(view: TraceView) -> ScenarioChooser:
    return ScenarioChooser(view.scenario)


@memoized
def replay(view: TraceView) -> Replay:
    state = State.initial(view.scenario)
    snapshot = state.copy()  # the game as it stands between groups (states are never changed once copied)
    groups: list[Group] = []
    group_of: dict[str, Group] = {}
    at: dict[int, State] = {}
    entries = view.entries
    i, n = 0, len(entries)
    while i < n:
        entry = entries[i]
        kind = entry["kind"]
        if kind == "event":
            j = i
            tag = entry.get("group")
            while tag is not None and j + 1 < n and entries[j + 1]["kind"] == "event" and entries[j + 1].get("group") == tag:
                j += 1
            before = state.copy()
            events = entries[i:j + 1]
            for event in events:
                state.apply(event)
            snapshot = state.copy()
            group = Group(events, i, j, before, snapshot)
            groups.append(group)
            for event in events:
                group_of[event["id"]] = group
            i = j + 1
            continue
        if kind in SNAPSHOT_KINDS:
            at[i] = snapshot
        i += 1
    return Replay(groups, group_of, at, state)


def state_at(view: TraceView, index: int) -> State:
    return replay(view).at[index]


@memoized
def spans(view: TraceView) -> list[tuple[int, int, str]]:
    """(begin, end, what) of every resolution and scripted action: the stretches where nothing may interrupt."""
    out = [(b, e, f"trigger {t} resolving") for t, b, e in view.resolution_spans]
    begins = view.by_kind["action_begin"]
    ends = view.by_kind["action_end"]
    out += [(b, e, f"scripted action {view.entries[b]['action']}") for b, e in zip(begins, ends)]
    return sorted(out)


@memoized
def _span_begins(view: TraceView) -> list[int]:
    return [begin for begin, _, _ in spans(view)]


def inside_span(view: TraceView, index: int) -> tuple[int, int, str] | None:
    """The resolution or action ``index`` falls inside, if any (they never overlap in a well-formed trace)."""
    k = bisect_left(_span_begins(view), index) - 1
    if k >= 0:
        begin, end, what = spans(view)[k]
        if begin < index < end:
            return begin, end, what
    return None


def spec_of(view: TraceView, trigger_id: str) -> dict[str, Any] | None:
    t = view.triggers.get(trigger_id)
    if t is None:
        return None
    return catalog(view).spec(t["source"], t["ability"], delayed="delayed" in t)


@memoized
def pushes(view: TraceView) -> dict[str, int]:
    """Trigger id -> index of its (first) stack_push."""
    out: dict[str, int] = {}
    for i in view.by_kind["stack_push"]:
        out.setdefault(view.entries[i]["trigger"], i)
    return out


@memoized
def batches(view: TraceView) -> list[list[int]]:
    """Stack pushes grouped by the 603.3b process they belong to: pushes between two checks of state-based actions
    (or other progress)."""
    out: list[list[int]] = []
    current: list[int] = []
    for i, entry in enumerate(view.entries):
        kind = entry["kind"]
        if kind == "stack_push":
            current.append(i)
        elif kind in ("sba_check", "priority", "resolve_begin", "resolve_end", "action_begin", "step_advance"):
            if current:
                out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def first_after(sorted_indexes: list[int], index: int) -> int | None:
    k = bisect_right(sorted_indexes, index)
    return sorted_indexes[k] if k < len(sorted_indexes) else None


def last_before(sorted_indexes: list[int], index: int) -> int | None:
    k = bisect_left(sorted_indexes, index)
    return sorted_indexes[k - 1] if k > 0 else None


@memoized
def sba_performed(view: TraceView) -> dict[str, list[dict[str, Any]]]:
    """sba_check id -> the events it performed."""
    return {view.entries[i]["id"]: list(view.events_by_cause.get(("sba", view.entries[i]["id"]), ()))
            for i in view.by_kind["sba_check"]}


def trigger_state(view: TraceView, trigger_id: str) -> State | None:
    """The game at the moment a trigger instance triggered: before its group for a look-back (leave) event, else
    just after its event's group (or just before the trigger entry when it names no event)."""
    t = view.triggers[trigger_id]
    group = replay(view).group_of.get(t["event"]) if t["event"] is not None else None
    if group is not None and "delayed" not in t:
        event = view.events[t["event"]]
        if event["type"] == "leave" and spec_of(view, trigger_id) is not None \
                and spec_of(view, trigger_id)["trigger"]["event"] == "leave":
            return group.before
        if spec_of(view, trigger_id) is None or spec_of(view, trigger_id)["trigger"]["event"] != "state":
            return group.after
    return replay(view).at.get(view.trigger_index[trigger_id])


def describe(view: TraceView, trigger_id: str) -> str:
    t = view.triggers.get(trigger_id)
    if t is None:
        return trigger_id
    origin = f"from {view.describe_event(t['event'])}" if t["event"] in view.events else "from the game state"
    extra = f" of delayed ability {t['delayed']}" if "delayed" in t else ""
    return f"{trigger_id} (ability {t['ability']}{extra} of {t['source']}, controlled by {t['controller']}, {origin})"


@memoized
def expected_triggers(view: TraceView) -> dict[str, list[tuple[str, str]]]:
    """Event id -> (source, ability) of every object ability (not a state trigger) the event should trigger."""
    cat = catalog(view)
    out: dict[str, list[tuple[str, str]]] = {}
    for group in replay(view).groups:
        for event in group.events:
            out[event["id"]] = []
        for event, source, ability, _ in cat.triggered_abilities(group.events, group.before, group.after):
            out[event["id"]].append((source, ability["id"]))
    return out


@memoized
def actual_triggers(view: TraceView) -> dict[str, list[tuple[str, str, str]]]:
    """Event id -> (source, ability, trigger id) of the object-ability instances (not state, not delayed) it got."""
    cat = catalog(view)
    out: dict[str, list[tuple[str, str, str]]] = {}
    for t, trig in view.triggers.items():
        if "delayed" in trig or trig["event"] is None:
            continue
        spec = cat.abilities.get((trig["source"], trig["ability"]))
        if spec is not None and spec["trigger"]["event"] == "state":
            continue
        out.setdefault(trig["event"], []).append((trig["source"], trig["ability"], t))
    return out


def compare_triggers(view: TraceView, event_ids) -> list[str]:
    """Missing and unexpected object-ability triggers of the given events, in plain words."""
    from collections import Counter

    found = []
    expected_all, actual_all = expected_triggers(view), actual_triggers(view)
    for event_id in event_ids:
        expected = Counter(expected_all.get(event_id, ()))
        actual = Counter((s, a) for s, a, _ in actual_all.get(event_id, ()))
        for (source, ability), n in sorted((expected - actual).items()):
            found.append(f"{view.describe_event(event_id)} should have triggered ability {ability} of {source} "
                         f"{n} more time(s)")
        for (source, ability), n in sorted((actual - expected).items()):
            found.append(f"ability {ability} of {source} triggered {n} time(s) too many from "
                         f"{view.describe_event(event_id)}")
    return found
