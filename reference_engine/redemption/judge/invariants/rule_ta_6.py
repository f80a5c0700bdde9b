"""Redemption TA.6: a triggered ability never inserts itself between other abilities; it stays pending until every
other ability has resolved, and then it activates. Where a trigger that arises while a triggered ability resolves
goes relative to those already pending is option ``trigger_during_resolution``."""

from __future__ import annotations

import bisect
from reference_engine.kernel.invariant import invariant
from reference_engine.redemption.judge.observations import PASSES, SPAN_OPEN, TURN_REASONS, replay
from reference_engine.kernel.traceview import TraceView, streamed

RULESET = "redemption"
RULE = {"reg-glossary": "TA.6"}
CLOSE = set(SPAN_OPEN.values())


def _describe_span(entry: dict) -> str:
    if entry["kind"] == "action_begin":
        return f"scripted action {entry['action']}"
    if entry["kind"] == "activation_begin":
        return f"activation {entry['id']} of ability {entry['ability']} of {entry['source']}"
    return f"trigger {entry['trigger']} resolving"


@streamed("trigger", *SPAN_OPEN, *CLOSE)
def _inside_spans(view: TraceView):
    """Trigger instances that arose while an action or ability was being carried out."""
    count = 0
    depth = 0
    def see(i, entry):
        nonlocal count, depth
        kind = entry["kind"]
        if kind in SPAN_OPEN:
            depth += 1
        elif kind in CLOSE:
            depth = max(0, depth - 1)
        elif kind == "trigger" and depth:
            count += 1

    return see, lambda: count


@streamed("resolve_begin", "removed", *SPAN_OPEN, *CLOSE)
def _cutting_in(view: TraceView):
    """red.no-cutting-in's findings, entry by entry (streamed)."""
    found = []
    open_spans: list[tuple[int, dict]] = []
    reported: set[int] = set()

    def see(i: int, entry: dict) -> None:
        kind = entry["kind"]
        takes_turn = kind == "resolve_begin" or (kind == "removed" and entry["reason"] in TURN_REASONS)
        if takes_turn and open_spans:
            start, opener = open_spans[-1]
            if start not in reported:
                reported.add(start)
                found.append(f"{view.describe_trigger(entry['trigger'])} took its turn at entry {i} while "
                             f"{_describe_span(opener)} (begun at entry {start}) was still being carried out; a "
                             f"triggered ability waits until the other abilities have resolved")
        if kind in SPAN_OPEN:
            open_spans.append((i, entry))
        elif kind in CLOSE:
            for k in range(len(open_spans) - 1, -1, -1):
                if SPAN_OPEN[open_spans[k][1]["kind"]] == kind:
                    del open_spans[k:]
                    break

    def finish() -> list[str]:
        for start, opener in open_spans:
            found.append(f"{_describe_span(opener)} (begun at entry {start}) never completed")
        return found

    return see, finish


@streamed("step_begin", "event", "step_advance")
def _early_advances(view: TraceView):
    """step_advance indexes of phases that an end_phase event ended early."""
    early = set()
    ended = False
    def see(i, entry):
        nonlocal ended
        if entry["kind"] == "step_begin":
            ended = False
        elif entry["kind"] == "event" and entry["type"] == "end_phase":
            ended = True
        elif entry["kind"] == "step_advance":
            if ended:
                early.add(i)
            ended = False

    return see, lambda: early


@streamed("event", "step_advance", "step_begin")
def _phase_endings(view: TraceView):
    """(end_phase event index, index of the step_advance that ends that phase), for each phase an effect ended."""
    out = []
    ending = None
    def see(i, entry):
        nonlocal ending
        if entry["kind"] == "event" and entry["type"] == "end_phase" and ending is None:
            ending = i
        elif entry["kind"] in ("step_advance", "step_begin"):
            if ending is not None and entry["kind"] == "step_advance":
                out.append((ending, i))
            ending = None

    return see, lambda: out


@invariant(
    passes=(*PASSES, _inside_spans, _cutting_in, _early_advances, _phase_endings),
    key="red.no-cutting-in",
    ruleset=RULESET,
    rules=RULE,
    summary="No triggered ability takes its turn while a scripted action, a card's ability or another triggered "
    "ability is still being carried out.",
    exercised=_inside_spans,
)
def no_cutting_in(view: TraceView) -> list[str]:
    return list(_cutting_in(view))


@invariant(
    passes=(*PASSES, _inside_spans, _cutting_in, _early_advances, _phase_endings),
    key="red.pending-then-activates",
    ruleset=RULESET,
    rules=RULE,
    summary="Once the other abilities have resolved, pending triggers activate: each takes exactly one turn, before "
    "the next scripted action and before its phase ends (unless an effect ended the phase early); once an effect has "
    "ended the phase, none takes its turn until the next phase.",
    exercised=lambda view: len(view.triggers),
)
def pending_then_activates(view: TraceView) -> list[str]:
    found = []
    ends = replay(view).ends
    early = _early_advances(view)
    deadlines = sorted([i for i in view.by_kind["action_begin"]]
                       + [i for i in view.step_advances if i not in early])
    total = len(view.entries)
    for t in view.triggers:
        born = view.trigger_index[t]
        k = bisect.bisect_right(deadlines, born)
        deadline = deadlines[k] if k < len(deadlines) else total
        end = ends.get(t)
        if end is None or end > deadline:
            if deadline == total:
                when = "the trace ended"
            elif view.entries[deadline]["kind"] == "action_begin":
                when = f"scripted action {view.entries[deadline]['action']} began at entry {deadline}"
            else:
                when = f"the phase ended at entry {deadline}"
            found.append(f"{view.describe_trigger(t)} was still pending when {when}; once nothing else is being "
                         f"carried out, it activates")
    for e, advance in _phase_endings(view):
        for k in range(e + 1, advance):
            entry = view.entries[k]
            if entry["kind"] == "resolve_begin" or (entry["kind"] == "removed" and entry["reason"] in TURN_REASONS):
                found.append(f"{view.describe_trigger(entry['trigger'])} took its turn at entry {k}, after "
                             f"{view.describe_event(view.entries[e]['id'])} ended the phase and before the phase ended "
                             f"at entry {advance}; once the effect ending the phase completes, pending triggers wait "
                             f"for the next phase")
                break
    for kind, t, i in getattr(view, "repeated", ()):
        if kind in ("resolve_begin", "removed") and t in view.triggers:
            found.append(f"{view.describe_trigger(t)} took a second turn at entry {i} ({kind}); a trigger activates "
                         f"once for its situation")
    return found


def _newcomers(view: TraceView) -> int:
    r = replay(view)
    return sum(1 for t in view.triggers if r.arose_inside.get(t) and r.arose_with_others_pending.get(t))


@invariant(
    passes=(*PASSES, _inside_spans, _cutting_in, _early_advances, _phase_endings),
    key="red.new-trigger-placement",
    ruleset=RULESET,
    rules=RULE,
    summary="Triggers take turns batch by batch: one that arises while a triggered ability resolves waits for every "
    "trigger already pending (trigger_during_resolution=after-pending) or goes ahead of them (before-pending).",
    exercised=_newcomers,
)
def new_trigger_placement(view: TraceView) -> list[str]:
    found = []
    after = view.options.get("trigger_during_resolution", "after-pending") == "after-pending"
    for t, turn in sorted(replay(view).turns.items(), key=lambda item: item[1].index):
        if turn.in_place or turn.inside_span:
            continue
        waiting = turn.waiting
        if after:
            rule = ("under trigger_during_resolution=after-pending it waits until the triggers already pending have "
                    "taken their turns")
        else:
            rule = ("under trigger_during_resolution=before-pending the triggers that arose during the last resolution "
                    "go first")
        ahead = f", ahead of {', '.join(waiting)}" if waiting else ""
        found.append(f"{view.describe_trigger(t)} took its turn at entry {turn.index} out of its place{ahead}; {rule}")
    return found
