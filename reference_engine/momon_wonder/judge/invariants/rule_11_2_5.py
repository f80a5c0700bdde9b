"""Momon Wonder 1.0.0, rule 11.2.5: what happens to events that occur while an ability resolves.

Their trigger groups (or packages) are appended in chronological order after work already pending; ordinary
triggers arising during a package's On Summon or post-Snatch processing use its processing queue; nested packages
stay deferred until the current package finishes, at their own positions; and a group that was waiting outside
the package before it opened never moves into its processing queue.
"""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.momon_wonder.judge.observations import (
    MAIN, event_group, group_events, packages, package_open_at, phase_at, queue_of, replayed_queues, summoned_by,
)
from reference_engine.kernel.traceview import TraceView, memoized
from reference_engine.momon_wonder.judge.observations import PASSES
from reference_engine.momon_wonder.judge.observations import enqueues

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.5"}


def _caused_by_resolution(view: TraceView, trigger: str) -> list[str]:
    """Trigger instances from events caused by ``trigger``'s resolution or by the State-Based Conditions right after."""
    events = list(view.events_by_cause.get(("resolution", trigger), ()))
    end = view.resolve_end.get(trigger)
    if end is not None and end + 1 < len(view.entries) and view.entries[end + 1]["kind"] == "sbc_check":
        events += view.events_by_cause.get(("sbc", view.entries[end + 1]["id"]), ())
    return [t for e in events for t in view.triggers_by_event.get(e["id"], ())]


def _left(view: TraceView, item: str) -> int | None:
    """Where a queued item left its queue: a trigger's resolution or removal, a package's opening."""
    if item in view.triggers:
        return view.left_at(item)
    package = packages(view).get(item)
    return None if package is None else package.at("package_open")


@memoized
def _lefts(view: TraceView) -> dict[str, int | None]:
    """:func:`_left` of every trigger instance and package of the trace, computed once."""
    out = {t: view.left_at(t) for t in view.triggers}
    out.update((p, package.at("package_open")) for p, package in packages(view).items() if p not in view.triggers)
    return out


@memoized
def _append_cases(view: TraceView) -> list:
    """(departure of T, instances T caused that entered the same queue) for resolutions with work already waiting."""
    queues = queue_of(view)
    cases = []
    for d in replayed_queues(view):
        if d.item not in view.triggers or d.item not in view.resolve_begin or len(d.waiting) < 2:
            continue
        caused = [t for t in _caused_by_resolution(view, d.item) if queues.get(t) == d.queue]
        if caused:
            cases.append((d, caused))
    return cases


@invariant(
    passes=PASSES,
    key="mw.append-after-pending",
    ruleset=RULESET,
    rules=RULE,
    summary="Triggers from events during a resolution are appended after the work that was already waiting.",
    exercised=lambda view: len(_append_cases(view)),
)
def append_after_pending(view: TraceView) -> list[str]:
    found = []
    for d, caused in _append_cases(view):
        lefts = _lefts(view)
        earlier = [(w, lefts[w] if w in lefts else _left(view, w)) for w in d.waiting if w != d.item]
        # A new instance overtakes a waiting item that never left, or left after it: compare with the latest departure
        # once, and look for the first overtaken item only when there is one (linear in the queue, not quadratic).
        never_left = any(w_left is None for _, w_left in earlier)
        latest = max((w_left for _, w_left in earlier if w_left is not None), default=-1)
        for new in caused:
            new_left = view.left_at(new)
            if new_left is None or not (never_left or new_left < latest):
                continue
            overtaken = [w for w, w_left in earlier if w_left is None or new_left < w_left]
            if overtaken:
                w = overtaken[0]
                what = view.describe_trigger(w) if w in view.triggers else f"package {w}"
                found.append(f"{view.describe_trigger(new)} arose while {d.item} resolved, yet it was processed before "
                             f"{what}, which was already waiting; new groups are appended after pending work")
                break
    return found


def _inside_processing(view: TraceView):
    """Instances from events caused inside a package's processing, with the package, the phase they arose in and the
    queue they must enter: the package's for On Summon and post-Snatch processing (11.2.5); for the Snatch Check and
    the State-Based Conditions right after it, which 11.2.5 does not name, option snatch_check_triggers (Section 9.3
    as assumed) says, for both alike: the package's under post-snatch, the Trigger Queue under deferred."""
    open_at, phases = package_open_at(view), phase_at(view)
    post_snatch = view.options.get("snatch_check_triggers", "post-snatch") == "post-snatch"
    only_summoned = view.options.get("package_contents") == "summoned-object-triggers"
    for t, trigger in view.triggers.items():
        if trigger["event"] is None:
            continue
        i = view.event_index[trigger["event"]]
        event = view.entries[i]
        package, phase = open_at[i], phases[i]
        if package is None:
            continue
        if event["type"] == "summon" and (not only_summoned or trigger["source"] in summoned_by(view, event["id"])):
            continue  # it waits in the nested Summon's own package
        # (Under package_contents=summoned-object-triggers, the other triggers of a nested Summon are an ordinary
        # group generated during this processing: they use its processing queue like any other.)
        ((cause, value),) = event["cause"].items()
        snatch_queue = package if post_snatch else MAIN
        if phase in ("on_summon", "post_snatch") and cause in ("resolution", "sbc"):
            yield t, package, phase, package
        elif cause == "snatch_check":
            yield t, package, "snatch_check", snatch_queue
        elif cause == "sbc" and phase is None:
            # The State-Based Conditions performed right after the Snatch Check, between its end and post-Snatch:
            # their triggers go where the Snatch Check's go (the option names both), under either value.
            yield t, package, "snatch_check", snatch_queue


@invariant(
    passes=PASSES,
    key="mw.package-processing-queue",
    ruleset=RULESET,
    rules=RULE,
    summary="Ordinary triggers arising during a package's On Summon or post-Snatch processing use that package's "
    "processing queue; those of its Snatch Check and of the State-Based Conditions after it go where option "
    "snatch_check_triggers says, both alike.",
    exercised=lambda view: sum(1 for _ in _inside_processing(view)),
)
def package_processing_queue(view: TraceView) -> list[str]:
    found = []
    queues = queue_of(view)
    for t, package, phase, expected in _inside_processing(view):
        if view.unresolved.get(t) is not None and not enqueues(view).get(t):
            continue
        if queues.get(t) != expected:
            where = "the package's processing queue" if expected == package else \
                "the Trigger Queue (snatch_check_triggers=deferred)"
            found.append(f"{view.describe_trigger(t)} arose during package {package}'s {phase.replace('_', ' ')} "
                         "processing but entered " + (f"queue {queues[t]}" if queues.get(t) is not None else "no queue")
                         + f", not {where}")
    return found


def _nested(view: TraceView):
    """(successful Summon event, the package open when it occurred, its own packages) for Summons inside a package."""
    open_at = package_open_at(view)
    seen = packages(view)
    keys = event_group(view)
    own: dict[str, list] = {}
    for package in seen.values():
        own.setdefault(keys.get(package.event, package.event), []).append(package)
    for key, occurrences in group_events(view).items():
        event = view.events[occurrences[0]]
        outer = open_at[view.event_index[event["id"]]]
        if event["type"] == "summon" and outer is not None and outer in seen:
            yield event, seen[outer], own.get(key, [])


@invariant(
    passes=PASSES,
    key="mw.nested-package-deferred",
    ruleset=RULESET,
    rules=RULE,
    summary="A Summon during a package's processing gets its own package, deferred until that package finishes; its "
    "triggers do not join the current processing queue.",
    exercised=lambda view: sum(1 for _ in _nested(view)),
)
def nested_package_deferred(view: TraceView) -> list[str]:
    found = []
    queues = queue_of(view)
    only_summoned = view.options.get("package_contents") == "summoned-object-triggers"
    for event, outer, own in _nested(view):
        monsters = summoned_by(view, event["id"])
        belongs = [t for e in group_events(view)[event_group(view)[event["id"]]]
                   for t in view.triggers_by_event.get(e, ())
                   if not only_summoned or view.triggers[t]["source"] in monsters]
        joined = [t for t in belongs if queues.get(t) == outer.id]
        if joined:
            found.append(f"{view.describe_trigger(joined[0])} from the nested Summon {view.describe_event(event['id'])} "
                         f"joined package {outer.id}'s processing queue instead of waiting in a deferred package")
        for package in own:
            opened, outer_closed = package.at("package_open"), outer.at("package_close")
            if opened is not None and (outer_closed is None or opened < outer_closed):
                found.append(f"package {package.id} of {view.describe_event(package.event)} arose inside package "
                             f"{outer.id} and was opened at entry {opened}, before {outer.id} finished")
    return found


@memoized
def _packages_with_deferred_work(view: TraceView) -> list:
    """(package, its span, the triggers queued outside it before it opened and still waiting then), for each package
    that had such deferred work (computed once per trace: the check and its exercised count both read it)."""
    queues, queued, left_at = queue_of(view), enqueues(view), view.left_at
    out = []
    for package in packages(view).values():
        span = package.span
        if span is None:
            continue
        deferred = [t for t, q in queues.items() if q != package.id and queued[t][0] < span[0]
                    and (left_at(t) is None or left_at(t) > span[0])]
        if deferred:
            out.append((package, span, deferred))
    return out


@invariant(
    passes=PASSES,
    key="mw.deferred-groups-stay-out",
    ruleset=RULESET,
    rules=RULE,
    summary="Ordinary trigger groups that were waiting outside a package before it opened never enter its processing "
    "queue.",
    exercised=lambda view: sum(1 for _ in _packages_with_deferred_work(view)),
)
def deferred_groups_stay_out(view: TraceView) -> list[str]:
    found = []
    for package, (opened, closed), deferred in _packages_with_deferred_work(view):
        inside = [t for t in deferred if view.left_at(t) is not None and opened < view.left_at(t) < closed]
        if inside:
            found.append(f"{view.describe_trigger(inside[0])} was already deferred outside package {package.id}, "
                         f"yet it was processed inside it (entry {view.left_at(inside[0])}, package entries "
                         f"{opened}-{closed})")
    return found
