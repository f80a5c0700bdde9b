"""Momon Wonder 1.0.0, rule 11.2.4: first in, first out is how the Trigger Queue resolves.

Each ability resolves completely, and a trigger leaves its queue without resolving only for a reason Momon Wonder
has; a pending package keeps its Summon event's position (neither behind later ordinary triggers nor ahead of
earlier ones); a package, once reached, runs its On Summon processing until its queue is empty, then its Snatch
Check (all of it), then State-Based Conditions, then its post-Snatch processing until empty; its processing queue
is distinct from later deferred work; no package interrupts a resolving ability; only in sanctioned play may the
Missed Trigger Remedy put a restored trigger at the front, and there it does.
"""

from __future__ import annotations


import bisect
from collections import ChainMap

from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.vocabulary import IN_PLAY, condition_holds, movement_event
from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.script import script_problems
from reference_engine.momon_wonder.judge.observations import (
    MAIN, PACKAGE_PHASES, package_position, packages, phase_at, queue_of, replayed_queues, snatch_check_of, summonable,
    trigger_positions, unit_effect, walk_effect, zones_at_resolution, zones_before,
)
from reference_engine.kernel.traceview import TraceView, memoized
from reference_engine.momon_wonder.judge.observations import PASSES
from reference_engine.momon_wonder.judge.observations import enqueues, sbc_checks

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.4"}


def _contested_departures(view: TraceView) -> int:
    return sum(1 for d in replayed_queues(view) if len(d.waiting) > 1)


@invariant(
    passes=PASSES,
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
    # the effect's moves write to the front map: no copy of every object's zone per resolution (and no map at all for
    # an effect that moves nothing)
    zones: ChainMap[str, str] | None = None
    expected: list[tuple[str, str | None]] = []
    for action in (ability or {}).get("effect", ()):
        do = action["do"]
        if do == "signal":
            expected.append(("signal", action.get("subject", t["source"])))
            continue
        if zones is None:
            zones = ChainMap({}, zones_at_resolution(view).get(trigger, {}))
        if do == "summon":
            monsters = summonable(action, zones)
            if action["succeeds"] and monsters:
                for obj in monsters:  # one Summon event, one occurrence per monster
                    expected.append(("summon", obj))
                    zones[obj] = IN_PLAY
            elif view.options.get("failed_summon_event") == "ordinary-event":
                expected.append(("summon_failed", action["object"]))
        elif do == "move":
            obj, to = action["object"], action["to"]
            if obj in zones and zones[obj] != to:
                expected.append((movement_event(zones[obj], to), obj))
                zones[obj] = to
    return expected


def _resolutions_with_effects(view: TraceView) -> int:
    return sum(1 for t in view.resolve_begin if (view.ability_of(t) or {}).get("effect"))


@invariant(
    passes=PASSES,
    key="mw.resolve-completely",
    ruleset=RULESET,
    rules=RULE,
    summary="Each ability resolves completely: every action of its effect happens, and it finishes before the next work "
    "(and each scripted action's effect, the work the scenario starts from, happens completely too).",
    exercised=_resolutions_with_effects,
)
def resolve_completely(view: TraceView) -> list[str]:
    found = _scripted_actions_performed(view)
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


def _scripted_actions_performed(view: TraceView) -> list[str]:
    """Each scripted action causes exactly the events its effect must cause from the zones as it began (a failed
    Summon's event included, under failed_summon_event=ordinary-event): the events that every trigger of the
    scenario starts from cannot be judged otherwise. And every scripted action is performed: the script is played as
    written, every action of every step in order (nothing in 11.2 ends a step early)."""
    found = script_problems(view)
    snapshots = zones_before(view)
    failed_event = view.options.get("failed_summon_event", "ordinary-event") == "ordinary-event"
    show = lambda pairs: ", ".join(f"{k} {s}" for k, s in pairs) or "nothing"  # noqa: E731
    for i in view.by_kind["action_begin"]:
        entry = view.entries[i]
        expected = [(x[1], x[2]) for x in walk_effect(unit_effect(view, entry), dict(snapshots[i]), failed_event)
                    if x[0] == "event"]
        caused = [(e["type"], e.get("subject")) for e in view.events_by_cause.get(("action", tuple(entry["action"])), ())]
        if caused != expected:
            found.append(f"scripted action {entry['action']} (entry {i}) caused [{show(caused)}]; its effect, "
                         f"performed completely, causes [{show(expected)}]")
    return found


@memoized
def _later_main_triggers(view: TraceView) -> list:
    """(package, trigger) pairs: a Trigger Queue trigger whose event is later than the package's Summon event."""
    queues = queue_of(view)
    positions = trigger_positions(view)
    main_triggers = [(t, positions[t]) for t, q in queues.items() if q == MAIN]
    main_triggers = [(t, position) for t, position in main_triggers if position is not None]
    out = []
    for package in packages(view).values():
        position = package_position(view, package)
        if position is None:
            continue
        out += [(package, t) for t, later in main_triggers if later > position]
    return out


@invariant(
    passes=PASSES,
    key="mw.package-position",
    ruleset=RULESET,
    rules=RULE,
    summary="A pending package keeps its Summon event's position: no ordinary trigger from a later event is processed "
    "ahead of it, and it is not processed ahead of ordinary triggers from earlier events.",
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
    # The other direction: the package is not placed ahead of ordinary triggers from earlier events either.
    queues, positions, queued = queue_of(view), trigger_positions(view), enqueues(view)
    for package in packages(view).values():
        position, opened = package_position(view, package), package.at("package_open")
        if position is None or opened is None or package.id in reported:
            continue
        for t, queue in queues.items():
            earlier = positions[t]
            if queue != MAIN or earlier is None or earlier >= position or queued[t][0] > opened:
                continue
            left = view.left_at(t)
            if left is None or left > opened:
                found.append(f"package {package.id} of {view.describe_event(package.event)} was opened (entry {opened}) "
                             f"while {view.describe_trigger(t)}, from an earlier event, was still waiting; the package "
                             f"keeps its own position, not one ahead of earlier work")
                break
    return found


def _opened(view: TraceView) -> int:
    return sum(1 for p in packages(view).values() if p.at("package_open") is not None)


@invariant(
    passes=PASSES,
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
        if not any(snatch_end < i < post_begin for i in sbc_checks(view)):
            found.append(f"package {package.id} went from its Snatch Check to post-Snatch processing without "
                         f"performing State-Based Conditions")
        opened, closed = package.span
        others = [i for i in view.by_kind["package_open"] if opened < i < closed]
        if others:
            found.append(f"package {view.entries[others[0]]['package']} was opened at entry {others[0]} while package "
                         f"{package.id} was still being processed")
        found += _drained(view, package)
        found += _snatch_check_performed(view, package)
    return found


def _snatch_check_performed(view: TraceView, package) -> list[str]:
    """The Snatch Check performs every action of the successful Summon's Snatch Check, in order."""
    begin = package.at("snatch_check_begin")
    subject = view.events[package.event].get("subject") if package.event in view.events else None
    failed_event = view.options.get("failed_summon_event", "ordinary-event") == "ordinary-event"
    expected = [(kind, who) for step, kind, who in (
        x for x in walk_effect(snatch_check_of(view, package.id), dict(zones_before(view)[begin]), failed_event, subject)
        if x[0] == "event")]
    caused = [(e["type"], e.get("subject")) for e in view.events_by_cause.get(("snatch_check", package.id), ())]
    if caused != expected:
        show = lambda pairs: ", ".join(f"{k} {s}" for k, s in pairs) or "nothing"  # noqa: E731
        return [f"package {package.id}'s Snatch Check caused [{show(caused)}]; performing it causes [{show(expected)}]"]
    return []


def _drained(view: TraceView, package) -> list[str]:
    """On Summon processing is complete only when its processing queue is empty, before the Snatch Check; the
    post-Snatch processing likewise before the package closes; and the queue is worked only in those two phases."""
    found = []
    phases = phase_at(view)
    on_summon_end, post_end = package.at("on_summon_end"), package.at("post_snatch_end")
    for trigger, queue in queue_of(view).items():
        if queue != package.id:
            continue
        enqueued, left = enqueues(view)[trigger][0], view.left_at(trigger)
        if enqueued < on_summon_end and (left is None or left > on_summon_end):
            found.append(f"{view.describe_trigger(trigger)} was waiting in package {package.id}'s processing queue when "
                         f"its On Summon processing ended (entry {on_summon_end}); On Summon processing completes, its "
                         f"queue empty, before the Snatch Check")
        elif enqueued < post_end and (left is None or left > post_end):
            found.append(f"{view.describe_trigger(trigger)} was waiting in package {package.id}'s processing queue when "
                         f"its post-Snatch processing ended (entry {post_end})")
        elif left is not None and phases[left] not in ("on_summon", "post_snatch"):
            found.append(f"{view.describe_trigger(trigger)} left package {package.id}'s processing queue at entry {left}, "
                         f"outside its On Summon and post-Snatch processing")
    return found


def _package_enqueues(view: TraceView) -> int:
    return sum(1 for q in queue_of(view).values() if q != MAIN)


@invariant(
    passes=PASSES,
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
        enqueued, left = enqueues(view)[trigger][0], view.left_at(trigger)
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
    passes=PASSES,
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
    passes=PASSES,
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


# -- Leaving the queue without resolving -------------------------------------------------------------------------

MOMON_REMOVAL_REASONS = ("declined", "intervening_if")  # options optional_choice and intervening_recheck


def _zones_at_departure(view: TraceView) -> dict[str, dict[str, str]]:
    """Trigger id -> zones of every object where it left its queue (resolve_begin or removed)."""
    snapshots = zones_before(view)
    out: dict[str, dict[str, str]] = {}
    for i in sorted(snapshots):
        entry = view.entries[i]
        if entry["kind"] in ("resolve_begin", "removed") and entry["trigger"] not in out:
            out[entry["trigger"]] = snapshots[i]
    return out


def _fates(view: TraceView) -> int:
    return sum(1 for t in view.triggers if (view.ability_of(t) or {}).get("optional")
               or (view.ability_of(t) or {}).get("intervening_if") or t in view.unresolved)


@invariant(
    passes=PASSES,
    key="mw.removal-reason",
    ruleset=RULESET,
    rules=RULE,
    summary="A trigger leaves without resolving only for a reason Momon Wonder has (its controller declined an "
    "optional ability, or its intervening condition no longer held), and always does when one applies.",
    exercised=_fates,
)
def removal_reason(view: TraceView) -> list[str]:
    found = []
    chooser = ScenarioChooser(view.scenario)
    zones = _zones_at_departure(view)
    on_trigger = view.options.get("optional_choice") == "on-trigger"
    recheck = bool(view.options.get("intervening_recheck", True))
    queued_at = enqueues(view)
    for t, trigger in view.triggers.items():
        ability = view.ability_of(t) or {}
        declines = bool(ability.get("optional")) and not chooser.optional(trigger["controller"], trigger)
        condition = ability.get("intervening_if")
        lapsed = (recheck and condition is not None and t in zones
                  and not condition_holds(condition, zones[t], trigger["source"]))
        removed = view.unresolved.get(t)
        first_queued = queued_at.get(t)
        queued = bool(first_queued) and (removed is None or first_queued[0] < removed)
        if removed is not None:
            reason = view.entries[removed]["reason"]
            if reason not in MOMON_REMOVAL_REASONS:
                found.append(f"{view.describe_trigger(t)} was removed at entry {removed} for reason {reason!r}, which "
                             f"Momon Wonder does not have (another game's rule); only "
                             f"{' and '.join(MOMON_REMOVAL_REASONS)} remove a trigger here")
            elif reason == "declined" and not declines:
                found.append(f"{view.describe_trigger(t)} was removed as declined at entry {removed}, but "
                             + ("its ability is not optional" if not ability.get("optional")
                                else "its controller chose to use it"))
            elif reason == "declined" and queued == on_trigger:
                when = "as it triggered" if on_trigger else "as it would resolve"
                found.append(f"{view.describe_trigger(t)} was declined at entry {removed} "
                             f"{'after' if queued else 'before'} entering a queue; option optional_choice="
                             f"{view.options.get('optional_choice')} asks {when}")
            elif reason == "declined" and lapsed and queued:
                found.append(f"{view.describe_trigger(t)} was removed as declined at entry {removed}, but its "
                             f"intervening condition no longer held: it is removed for that, before its controller "
                             f"is asked (a choice is offered only for a trigger that would resolve)")
            elif reason == "intervening_if" and not lapsed:
                why = ("it has no intervening condition" if condition is None else
                       "option intervening_recheck=false: the condition is checked only when the event occurs"
                       if not recheck else "its intervening condition still held")
                found.append(f"{view.describe_trigger(t)} was removed at entry {removed} for its intervening condition, "
                             f"but {why}")
        elif t in view.resolve_begin:
            if lapsed:
                found.append(f"{view.describe_trigger(t)} resolved at entry {view.resolve_begin[t]} although its "
                             f"intervening condition no longer held (option intervening_recheck=true): it must be "
                             f"removed instead")
            elif declines:
                found.append(f"{view.describe_trigger(t)} resolved at entry {view.resolve_begin[t]} although its "
                             f"controller declined the optional ability: it must be removed instead")
    return found
