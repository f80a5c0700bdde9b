"""MTG 603.3 (with 117.2a): a triggered ability waits, and goes on the stack when a player is next about to get priority,
never in the middle of an action or a resolution; 603.3a: it is controlled by its source's controller when it
triggered."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import born_at, describe, ended_before, first_after, inside_span, pushes, trigger_state
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView

RULESET = "mtg"


def _triggered_while_busy(view: TraceView) -> int:
    return sum(1 for t, i in view.trigger_index.items() if inside_span(view, i) is not None)


@invariant(
    passes=PASSES,
    key="mtg.stack-at-priority",
    ruleset=RULESET,
    rules={"2026-02-27": "603.3", "2021-02-24": "603.3"},
    summary="A triggered ability waits until a player would next receive priority to go on the stack: never during "
    "an action or a resolution, and always before that player gets priority.",
    exercised=_triggered_while_busy,
)
def stack_at_priority(view: TraceView) -> list[str]:
    found = []
    for i in view.by_kind["stack_push"]:
        span = inside_span(view, i)
        if span is not None:
            t = view.entries[i]["trigger"]
            found.append(f"{describe(view, t)} was put on the stack at entry {i} while {span[2]} (entries "
                         f"{span[0]}-{span[1]}); it must wait until a player would receive priority (117.2a)")
    priorities = view.by_kind["priority"]
    pushed = pushes(view)
    for t in view.trigger_index:
        deadline = first_after(priorities, born_at(view, t))
        ceased = view.unresolved.get(t)
        candidates = [x for x in (pushed.get(t), ceased) if x is not None]
        done = min(candidates) if candidates else None
        if done is None:
            if not ended_before(view, deadline):
                found.append(f"{describe(view, t)} never went on the stack")
        elif deadline is not None and done > deadline:
            found.append(f"{describe(view, t)} was still waiting when {view.entries[deadline]['player']} received "
                         f"priority at entry {deadline}")
    return found


def _control_changed(view: TraceView) -> int:
    count = 0
    for t, trig in view.triggers.items():
        if "delayed" in trig or trig["source"] not in view.objects:
            continue
        state = trigger_state(view, t)
        if state is not None and state.controller_of.get(trig["source"]) != view.objects[trig["source"]]["owner"]:
            count += 1
    return count


@invariant(
    passes=PASSES,
    key="mtg.trigger-controller",
    ruleset=RULESET,
    rules={"2026-02-27": "603.3a", "2021-02-24": "603.3a"},
    summary="A triggered ability (not a delayed one) is controlled by whoever controlled its source when it triggered.",
    exercised=_control_changed,
)
def trigger_controller(view: TraceView) -> list[str]:
    found = []
    for t, trig in view.triggers.items():
        if "delayed" in trig:
            continue
        state = trigger_state(view, t)
        if state is None or trig["source"] not in state.controller_of:
            continue
        expected = state.controller_of[trig["source"]]
        if trig["controller"] != expected:
            found.append(f"{describe(view, t)} is controlled by {trig['controller']}, but {expected} controlled "
                         f"{trig['source']} when it triggered")
    return found
