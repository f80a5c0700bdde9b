"""Momon Wonder 1.0.0, rule 11.2.4: first in, first out is how the Trigger Queue resolves.

Each ability resolves completely; a pending package keeps its Summon event's position (it is not placed behind all
ordinary triggers); a package, once reached, runs its On Summon processing, then its Snatch Check, then
State-Based Conditions, then its post-Snatch processing; its processing queue is distinct from later deferred work; no package interrupts a resolving
ability; only in sanctioned play may the Missed Trigger Remedy put a restored trigger at the front.
"""

from __future__ import annotations

import bisect

from reference_engine.core.vocabulary import IN_PLAY, movement_event
from reference_engine.core.invariant import invariant
from reference_engine.rulesets.momon_wonder.observations import (
    MAIN, PACKAGE_PHASES, package_position, packages, queue_of, replayed_queues, zones_at_resolution,
)
from reference_engine.core.traceview import TraceView

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.4"}


def _contested_departures(view: TraceView) -> int:
    return sum(1 for d in replayed_queues(view) if len(d.waiting) > 1)


@invariant(
    key="mw.queue-fifo",
    ruleset=RULESET,
    rules=RULE,
    summary="Every queue resolves first in, first out: what entered first leaves first.",
    exercised=_contested_departures,
)
def queue_fifo(view: TraceView) -> list[str]:
    found = []
    reported: set[str] = set()
    for d in replayed_queues(view):
        if d.queue in reported or not d.waiting or d.waiting[0] == d.item:
            continue
        reported.add(d.queue)
        head = d.waiting[0]
        what = view.describe_trigger(d.item) if d.item in view.triggers else f"package {d.item}"
        ahead = view.describe_trigger(head) if head in view.triggers else f"package {head}"
        name = "the Trigger Queue" if d.queue == MAIN else f"the processing queue of package {d.queue}"
        found.append(f"{what} left {name} at entry {d.index} while {ahead}, which entered it earlier, was still "
                     f"waiting; the queue is first in, first out")
    return found


def _expected_events(view: TraceView, trigger: str) -> list[tuple[str, str | None]]:
    """(type, subject) of the events the trigger's effect must cause, given the zones as its resolution began."""
    t = view.triggers[trigger]
    ability = view.ability_of(trigger)
    zones = dict(zones_at_resolution(view).get(trigger, {}))
    expected: list[tuple[str, str | None]] = []
    for action in (ability or {}).get("effect", ()):
        do = action["do"]
        if do == "signal":
            expected.append(("signal", action.get("subject", t["source"])))
        elif do == "summon":
            obj = action["object"]
            if action["succeeds"] and zones.get(obj) in ("hand", "deck"):
                expected.append(("summon", obj))
                zones[obj] = IN_PLAY
            elif view.options.get("failed_summon_event") == "ordinary-event":
                expected.append(("summon_failed", obj))
        elif do == "move":
            obj, to = action["object"], action["to"]
            if obj in zones and zones[obj] != to:
                expected.append((movement_event(zones[obj], to), obj))
                zones[obj] = to
    return expected


def _resolutions_with_effects(view: TraceView) -> int:
    return sum(1 for t in view.resolve_begin if (view.ability_of(t) or {}).get("effect"))


@invariant(
    key="mw.resolve-completely",
    ruleset=RULESET,
    rules=RULE,
    summary="Each ability resolves completely: every action of its effect happens, and it finishes before the next work.",
    exercised=_resolutions_with_effects,
)
def resolve_completely(view: TraceView) -> list[str]:
    found = []
    for trigger, begin in view.resolve_begin.items():
        if trigger not in view.resolve_end:
            found.append(f"{view.describe_trigger(trigger)} began resolving at entry {begin} and never finished")
            continue
        caused = [(e["type"], e.get("subject")) for e in view.events_by_cause.get(("resolution", trigger), ())]
        expected = _expected_events(view, trigger)
        if caused != expected:
            show = lambda pairs: ", ".join(f"{k} {s}" for k, s in pairs) or "nothing"  # noqa: E731
            found.append(f"{view.describe_trigger(trigger)} caused [{show(caused)}] while resolving; its effect, "
                         f"performed completely, causes [{show(expected)}]")
    return found


def _later_main_triggers(view: TraceView):
    """(package, trigger) pairs: a Trigger Queue trigger whose event is later than the package's Summon event."""
    queues = queue_of(view)
    main_triggers = [t for t, q in queues.items() if q == MAIN and view.position_of(t) is not None]
    for package in packages(view).values():
        position = package_position(view, package)
        if position is None:
            continue
        for t in main_triggers:
            if view.position_of(t) > position:
                yield package, t


@invariant(
    key="mw.package-position",
    ruleset=RULESET,
    rules=RULE,
    summary="A pending package keeps its Summon event's position: no ordinary trigger from a later event is processed "
    "ahead of it.",
    exercised=lambda view: sum(1 for _ in _later_main_triggers(view)),
)
def package_position_kept(view: TraceView) -> list[str]:
    found = []
    reported: set[str] = set()
    for package, t in _later_main_triggers(view):
        opened = package.at("package_open")
        left = view.left_at(t)
        if package.id not in reported and left is not None and (opened is None or left < opened):
            reported.add(package.id)
            found.append(f"{view.describe_trigger(t)} was processed (entry {left}) before package {package.id} of "
                         f"{view.describe_event(package.event)} was reached, but the package keeps its earlier position")
    return found


def _opened(view: TraceView) -> int:
    return sum(1 for p in packages(view).values() if p.at("package_open") is not None)


@invariant(
    key="mw.package-completes",
    ruleset=RULESET,
    rules=RULE,
    summary="A package, once reached, runs On Summon processing, its Snatch Check, State-Based Conditions, then "
    "post-Snatch processing, in that order, before any later work.",
    exercised=_opened,
)
def package_completes(view: TraceView) -> list[str]:
    found = []
    for package in packages(view).values():
        if package.at("package_open") is None:
            continue
        counts = {phase: len(package.phases.get(phase, ())) for phase in PACKAGE_PHASES}
        wrong = [phase for phase, n in counts.items() if n != 1]
        if wrong:
            found.append(f"package {package.id} was opened but {', '.join(wrong)} did not happen exactly once")
            continue
        indexes = [package.at(phase) for phase in PACKAGE_PHASES]
        if indexes != sorted(indexes):
            order = ", ".join(phase for _, phase in sorted(zip(indexes, PACKAGE_PHASES)))
            found.append(f"package {package.id}'s processing went {order}; it must be On Summon processing, Snatch "
                         f"Check, State-Based Conditions, post-Snatch processing")
            continue
        snatch_end, post_begin = package.at("snatch_check_end"), package.at("post_snatch_begin")
        if not any(snatch_end < i < post_begin for i in view.sbc_checks):
            found.append(f"package {package.id} went from its Snatch Check to post-Snatch processing without "
                         f"performing State-Based Conditions")
        opened, closed = package.span
        others = [i for i in view.by_kind["package_open"] if opened < i < closed]
        if others:
            found.append(f"package {view.entries[others[0]]['package']} was opened at entry {others[0]} while package "
                         f"{package.id} was still being processed")
    return found


def _package_enqueues(view: TraceView) -> int:
    return sum(1 for q in queue_of(view).values() if q != MAIN)


@invariant(
    key="mw.processing-queue-distinct",
    ruleset=RULESET,
    rules=RULE,
    summary="A package's processing queue exists only while the package is processed, and is empty when it closes.",
    exercised=_package_enqueues,
)
def processing_queue_distinct(view: TraceView) -> list[str]:
    found = []
    seen = packages(view)
    for trigger, queue in queue_of(view).items():
        if queue == MAIN:
            continue
        package = seen.get(queue)
        span = package.span if package else None
        if span is None:
            found.append(f"{view.describe_trigger(trigger)} entered the processing queue of {queue}, a package that "
                         f"was never processed")
            continue
        enqueued, left = view.enqueues[trigger][0], view.left_at(trigger)
        if not span[0] < enqueued < span[1]:
            found.append(f"{view.describe_trigger(trigger)} entered package {queue}'s processing queue at entry "
                         f"{enqueued}, outside its processing (entries {span[0]}-{span[1]})")
        elif left is None or left > span[1]:
            found.append(f"{view.describe_trigger(trigger)} was still in package {queue}'s processing queue when the "
                         f"package closed at entry {span[1]}")
    return found


def _resolutions_with_pending_package(view: TraceView) -> int:
    creates = [p.created for p in packages(view).values()]
    return sum(1 for _, b, _ in view.resolution_spans if any(c < b for c in creates))


@invariant(
    key="mw.no-package-interrupts",
    ruleset=RULESET,
    rules=RULE,
    summary="No package interrupts an ability that is already resolving.",
    exercised=_resolutions_with_pending_package,
)
def no_package_interrupts(view: TraceView) -> list[str]:
    found = []
    phase_entries = sorted(i for kind in PACKAGE_PHASES for i in view.by_kind[kind])
    for trigger, begin, end in view.resolution_spans:
        k = bisect.bisect_right(phase_entries, begin)
        if k < len(phase_entries) and phase_entries[k] < end:
            i = phase_entries[k]
            found.append(f"package {view.entries[i]['package']} ({view.entries[i]['kind']}, entry {i}) interrupted "
                         f"{view.describe_trigger(trigger)} while it was resolving (entries {begin}-{end})")
    return found


def _restored(view: TraceView) -> int:
    return sum(1 for t in view.triggers.values() if t.get("remedy"))


@invariant(
    key="mw.remedy-front",
    ruleset=RULESET,
    rules=RULE,
    summary="Only in sanctioned play, and only for a trigger restored by the Missed Trigger Remedy, does a trigger go "
    "to the front of its queue.",
    exercised=_restored,
)
def remedy_front(view: TraceView) -> list[str]:
    found = []
    sanctioned = bool(view.options.get("sanctioned_play"))
    for i in view.by_kind["enqueue"]:
        entry = view.entries[i]
        trigger = view.triggers.get(entry["trigger"], {})
        front = entry.get("placement") == "front"
        restored = bool(trigger.get("remedy"))
        if front and not (restored and sanctioned):
            why = "it was not restored by the Missed Trigger Remedy" if not restored else "this is not sanctioned play"
            found.append(f"{view.describe_trigger(entry['trigger'])} was put at the front of its queue at entry {i}, "
                         f"but {why}")
        elif restored and sanctioned and not front:
            found.append(f"{view.describe_trigger(entry['trigger'])} was restored by the Missed Trigger Remedy in "
                         f"sanctioned play but was not put at the front of its queue")
    return found
