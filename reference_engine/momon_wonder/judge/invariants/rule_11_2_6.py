"""Momon Wonder 1.0.0, rule 11.2.6: the Trigger Queue and the pending Summon packages are processed until both are
empty before the game advances to the next step."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.momon_wonder.judge.observations import packages
from reference_engine.kernel.traceview import TraceView
from reference_engine.momon_wonder.judge.observations import PASSES
from reference_engine.momon_wonder.judge.observations import enqueues


def _advances_with_work(view: TraceView) -> int:
    queued = sorted(i for idx in enqueues(view).values() for i in idx[:1])
    previous = -1
    count = 0
    for a in view.step_advances:
        if any(previous < i < a for i in queued):
            count += 1
        previous = a
    return count


@invariant(
    passes=PASSES,
    key="mw.empty-before-advance",
    ruleset="momon-wonder",
    rules={"1.0.0": "11.2.6"},
    summary="The step advances only once the Trigger Queue and every pending package are empty.",
    exercised=_advances_with_work,
)
def empty_before_advance(view: TraceView) -> list[str]:
    found = []
    advances = view.step_advances or []
    end = len(view.entries)
    for trigger, indexes in enqueues(view).items():
        left = view.left_at(trigger)
        deadline = next((a for a in advances if a > indexes[0]), end)
        if left is None or left > deadline:
            when = f"at entry {deadline} the step advanced" if deadline < end else "the trace ended"
            found.append(f"{view.describe_trigger(trigger)} was still waiting when {when}")
    for package in packages(view).values():
        closed = package.at("package_close")
        deadline = next((a for a in advances if a > package.created), end)
        if closed is None or closed > deadline:
            when = f"at entry {deadline} the step advanced" if deadline < end else "the trace ended"
            found.append(f"package {package.id} of {view.describe_event(package.event)} was still pending when {when}")
    return found
