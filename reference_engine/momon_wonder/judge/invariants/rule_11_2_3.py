"""Momon Wonder 1.0.0, rule 11.2.3: collecting the triggers of a completed event.

Every waiting trigger is collected, and collected by the time the completed work (and the State-Based Conditions
after it) is done, before any later work; a trigger enters a queue at most once per satisfying event; each trigger
group keeps its event's chronological position (a trigger restored by the Missed Trigger Remedy, where it was
restored); a successful Effect-Based Summon creates a package at its event's position whose On Summon processing
holds that event's waiting triggers; Section 11.3 orders one event's group (option ``same_event_order``;
``package_contents`` says which triggers a package holds). A Summon of several monsters is one event: its
occurrences share a ``group``, an ability triggers once for all of them, and there is one package.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.invariant import invariant
from reference_engine.momon_wonder.judge.observations import (
    MAIN, completion_of, enqueues, event_group, group_events, one_summon_occurrences, packages, phase_at, queue_of,
    summoned_by, trigger_position, trigger_positions, units,
)
from reference_engine.momon_wonder.judge.observations import group_position as event_position
from reference_engine.kernel.traceview import TraceView, memoized, streamed
from reference_engine.momon_wonder.judge.observations import PASSES

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.3"}


def _declined_on_trigger(view: TraceView, trigger: str) -> bool:
    """Declined when it triggered (never queued): allowed only under option optional_choice=on-trigger."""
    removed = view.unresolved.get(trigger)
    return (removed is not None and view.entries[removed]["reason"] == "declined" and not enqueues(view).get(trigger)
            and view.options.get("optional_choice") == "on-trigger")


def _instances(view: TraceView) -> int:
    return len(view.triggers)


# Entries that begin or end a piece of work: a trigger waiting from a completed event must have been collected before
# the next of them (the State-Based Conditions after the completion, their events and the placement come first).
_WORK = frozenset({
    "resolve_begin", "package_open", "on_summon_begin", "on_summon_end", "snatch_check_begin", "snatch_check_end",
    "post_snatch_begin", "post_snatch_end", "package_close", "action_begin", "step_advance", "step_begin",
})


def _collected_at(view: TraceView, trigger: str, package_created: dict[str, int]) -> int | None:
    """Where a trigger instance was collected: its first enqueue, its package's creation (a successful Summon's
    triggers wait in the package), or its removal when it was declined as it triggered."""
    candidates = []
    queued = enqueues(view).get(trigger)
    if queued:
        candidates.append(queued[0])
    event = view.triggers[trigger]["event"]
    if event in package_created:
        candidates.append(package_created[event])
    removed = view.unresolved.get(trigger)
    if removed is not None and not queued:
        candidates.append(removed)
    return min(candidates) if candidates else None


def _collection_deadline(view: TraceView, event_id: str | None, at: int | None = None) -> int | None:
    """Index of the first work entry after the completion of the action, ability or Snatch Check during which the
    event happened (for an event of State-Based Conditions: after the event itself). For a trigger restored by the
    Missed Trigger Remedy (no event), ``at`` is where it was restored: the work around that entry."""
    if event_id is not None:
        end = completion_of(view, view.events[event_id])
    else:
        around = [u.end for u in units(view) if u.begin < at < u.end]
        end = min(around) if around else None
    if end is None:
        return None
    known = _next_work(view)  # many triggers share one completion: each scan is done once per trace
    if end not in known:
        known[end] = None
        for k in range(end + 1, len(view.entries)):
            entry = view.entries[k]
            if entry["kind"] in _WORK or (entry["kind"] == "removed" and enqueues(view).get(entry["trigger"])
                                          and enqueues(view)[entry["trigger"]][0] < k):
                known[end] = k  # a queued trigger leaving its queue is work too
                break
    return known[end]


@memoized
def _next_work(view: TraceView) -> dict[int, int | None]:
    """Completion entry index -> the first work entry after it (see _collection_deadline), filled as asked."""
    return {}


@invariant(
    passes=PASSES,
    key="mw.collect-every-trigger",
    ruleset=RULESET,
    rules=RULE,
    summary="Every trigger waiting from a completed event is collected into a queue (or its package) once the event's "
    "action, ability or Snatch Check and the State-Based Conditions after it are complete, before any later work; "
    "none is lost.",
    exercised=_instances,
)
def collect_every_trigger(view: TraceView) -> list[str]:
    found = []
    keys = event_group(view)
    created = {keys.get(p.event, p.event): p.created for p in packages(view).values()}
    package_created = {e: created[k] for e, k in keys.items() if k in created}
    queued = enqueues(view)
    for t, trigger in view.triggers.items():
        if not queued.get(t) and not _declined_on_trigger(view, t):
            removed = view.unresolved.get(t)
            found.append(f"{view.describe_trigger(t)} never entered a queue" + (
                f" (it was removed as {view.entries[removed]['reason']} without being queued; only option "
                f"optional_choice=on-trigger lets a trigger be declined before it is queued)" if removed is not None else ""))
            continue
        if trigger["event"] is not None and trigger["event"] not in view.events:
            continue
        collected = _collected_at(view, t, package_created)
        deadline = _collection_deadline(view, trigger["event"], view.trigger_index[t])
        if collected is not None and deadline is not None and collected > deadline:
            found.append(f"{view.describe_trigger(t)} was collected only at entry {collected}; the work that made it "
                         f"was complete and State-Based Conditions performed before entry {deadline} "
                         f"({view.entries[deadline]['kind']}), where the next work began")
    return found


@invariant(
    passes=PASSES,
    key="mw.once-per-event",
    ruleset=RULESET,
    rules=RULE,
    summary="A trigger enters the queue at most once for each event that satisfies it.",
    exercised=_instances,
)
def once_per_event(view: TraceView) -> list[str]:
    found = []
    keys = event_group(view)  # the occurrences of one event (a shared group) are one event
    seen = Counter((t["source"], t["ability"], keys.get(t["event"], t["event"])) for t in view.triggers.values()
                   if t["event"] is not None)
    for (source, ability, event), n in seen.items():
        if n > 1:
            found.append(f"ability {ability} of {source} triggered {n} times from {view.describe_event(event)}; "
                         f"it may enter the queue only once for that event")
    for trigger, indexes in enqueues(view).items():
        if len(indexes) > 1:
            found.append(f"{view.describe_trigger(trigger)} entered a queue {len(indexes)} times "
                         f"(entries {', '.join(map(str, indexes))})")
    for kind, trigger, i in view.repeated:
        if kind == "resolve_begin":
            found.append(f"{view.describe_trigger(trigger)} resolved a second time at entry {i}")
    return found


@streamed("enqueue", "package_create", "event", "trigger")
def _placements(view: TraceView):
    """Queue -> back placements (entry index, event position, what: a trigger id or ("package", id)) in trace order
    (streamed).

    A trigger restored by the Missed Trigger Remedy has no event; it takes its place in time where it was restored:
    just after the last event before it (a half position, so that it sorts between that event and the next)."""
    by_queue: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    restored_at: dict[str, float] = {}
    last = 0
    positions = trigger_positions(view)  # trigger_position of every trigger of the trace (KeyError for no trigger)

    def see(i: int, entry: dict) -> None:
        nonlocal last
        kind = entry["kind"]
        if kind == "event":
            last = entry["position"]
        elif kind == "trigger":
            if entry.get("event") is None:
                restored_at[entry["id"]] = last + 0.5
        elif kind == "enqueue":
            if entry.get("placement", "back") == "back":
                position = positions[entry["trigger"]] if entry["trigger"] in positions else None
                if position is None:
                    position = restored_at.get(entry["trigger"])
                if position is not None:
                    by_queue[entry["queue"]].append((i, position, entry["trigger"]))
        elif entry["event"] in view.events:  # package_create
            by_queue[MAIN].append((i, event_position(view, entry["event"]), ("package", entry["package"])))

    return see, lambda: by_queue


def _placed(view: TraceView, what) -> str:
    """How a placement of :func:`_placements` is named in a message."""
    return f"package {what[1]}" if isinstance(what, tuple) else view.describe_trigger(what)


def _placement_pairs(view: TraceView) -> int:
    return sum(max(0, len(p) - 1) for p in _placements(view).values())


def _ahead_of_earlier(view: TraceView) -> list[str]:
    """Triggers from an event put at the front of a queue ahead of waiting work from an earlier event: placed out of
    their event's chronological position as surely as one placed behind later work. (A trigger restored by the
    Missed Trigger Remedy has no event: where it may go is 11.2.4's last sentence, mw.remedy-front.)"""
    fronts = [i for i in view.by_kind["enqueue"] if view.entries[i].get("placement") == "front"
              and view.triggers.get(view.entries[i]["trigger"], {}).get("event") is not None]
    if not fronts:
        return []
    found = []
    seen = packages(view)
    queues: dict[str, list] = defaultdict(list)
    where: dict[str, str] = {}
    for i in range(fronts[-1] + 1):
        entry = view.entries[i]
        kind = entry["kind"]
        if kind == "enqueue" and entry["trigger"] not in where:
            trigger = entry["trigger"]
            queue = queues[entry["queue"]]
            if entry.get("placement") == "front" and i in fronts:
                mine = trigger_position(view, trigger)
                for item in queue:
                    theirs = (event_position(view, seen[item].event) if item in seen and seen[item].event in view.events
                              else trigger_position(view, item) if item in view.triggers else None)
                    if theirs is not None and mine is not None and theirs < mine:
                        ahead = _placed(view, ("package", item) if item in seen else item)
                        found.append(f"{view.describe_trigger(trigger)} was put at the front of queue {entry['queue']} "
                                     f"at entry {i}, ahead of {ahead}, which waited from an earlier event (position "
                                     f"{theirs}; its own {mine})")
                        break
                queue.insert(0, trigger)
            else:
                queue.append(trigger)
            where[trigger] = entry["queue"]
        elif kind == "package_create":
            queues[MAIN].append(entry["package"])
            where[entry["package"]] = MAIN
        elif kind in ("resolve_begin", "removed", "package_open"):
            item = entry["package"] if kind == "package_open" else entry["trigger"]
            if item in where:
                queues[where.pop(item)].remove(item)
    return found


@invariant(
    passes=(*PASSES, _placements),
    key="mw.group-position",
    ruleset=RULESET,
    rules=RULE,
    summary="Each trigger group, and each package, is placed at its creating event's chronological position.",
    exercised=_placement_pairs,
)
def group_position(view: TraceView) -> list[str]:
    found = _ahead_of_earlier(view)
    for queue, placed in _placements(view).items():
        latest = None
        for i, position, what in placed:
            if latest is not None and position < latest[1]:
                found.append(f"{_placed(view, what)} was placed in queue {queue} at entry {i} behind "
                             f"{_placed(view, latest[2])} (event position "
                             f"{latest[1]}), although its own event came earlier (position {position})")
            if latest is None or position >= latest[1]:
                latest = (i, position, what)
    return found


def _successful_summons(view: TraceView) -> int:
    return sum(1 for occurrences in group_events(view).values() if view.events[occurrences[0]]["type"] == "summon")


@invariant(
    passes=PASSES,
    key="mw.summon-package",
    ruleset=RULESET,
    rules=RULE,
    summary="A successful Effect-Based Summon, and only that, creates one package that processes its event's triggers "
    "in its On Summon processing.",
    exercised=_successful_summons,
)
def summon_package(view: TraceView) -> list[str]:
    found = []
    seen = packages(view)
    keys = event_group(view)
    by_group: dict[str, list[str]] = defaultdict(list)
    for package in seen.values():
        by_group[keys.get(package.event, package.event)].append(package.id)
    phases = phase_at(view)
    only_summoned = view.options.get("package_contents") == "summoned-object-triggers"
    together = one_summon_occurrences(view)
    for occurrences in together:
        groups = {view.events[e].get("group") for e in occurrences}
        if len(groups) != 1 or None in groups:
            monsters = ", ".join(view.events[e].get("subject") or "?" for e in occurrences)
            found.append(f"one Effect-Based Summon summoned {monsters} (events {', '.join(occurrences)}), so it is "
                         f"one Summon event with one package, but its occurrences do not share one group")
    expected_sets = {frozenset(occurrences) for occurrences in together}
    for key, occurrences in group_events(view).items():
        if len(occurrences) > 1 and frozenset(occurrences) not in expected_sets:
            found.append(f"events {', '.join(occurrences)} share group {key}, but no single Effect-Based Summon "
                         f"caused them all")
    for key, occurrences in group_events(view).items():
        first = view.events[occurrences[0]]
        made = by_group.get(key, [])
        if first["type"] != "summon":
            if made:
                found.append(f"{view.describe_event(first['id'])} is not a successful Summon, yet package "
                             f"{made[0]} was created for it")
            continue
        if len(made) != 1:
            what = "" if len(occurrences) == 1 else f" (one event summoning {', '.join(summoned_by(view, key))})"
            found.append(f"successful Summon {view.describe_event(first['id'])}{what} created {len(made)} packages, "
                         f"not one")
            continue
        package = made[0]
        monsters = set(summoned_by(view, key))
        for trigger in (t for e in occurrences for t in view.triggers_by_event.get(e, ())):
            if _declined_on_trigger(view, trigger):
                continue
            belongs = not only_summoned or view.triggers[trigger]["source"] in monsters
            queue = queue_of(view).get(trigger)
            enqueued_at = enqueues(view)[trigger][0] if enqueues(view).get(trigger) else None
            in_on_summon = enqueued_at is not None and phases[enqueued_at] == "on_summon"
            if belongs and (queue != package or not in_on_summon):
                found.append(f"{view.describe_trigger(trigger)} waited from successful Summon {first['id']} but was not "
                             f"processed in package {package}'s On Summon processing (it went to queue {queue})")
            elif not belongs and queue == package:
                found.append(f"{view.describe_trigger(trigger)} is not the summoned object's, yet it entered package "
                             f"{package} (option package_contents=summoned-object-triggers)")
    return found


@memoized
def _groups(view: TraceView) -> list[list[str]]:
    """Trigger instances of one event that entered one queue, in the order they entered it."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    keys = event_group(view)
    for i in view.by_kind["enqueue"]:
        entry = view.entries[i]
        trigger = view.triggers.get(entry["trigger"])
        if trigger is not None and trigger["event"] is not None and entry.get("placement", "back") == "back":
            key = (keys.get(trigger["event"], trigger["event"]), entry["queue"])
            if entry["trigger"] not in groups[key]:
                groups[key].append(entry["trigger"])
    return list(groups.values())


def _groups_to_order(view: TraceView) -> int:
    return sum(1 for group in _groups(view) if len(group) > 1)


@memoized
def _chooser(view: TraceView) -> ScenarioChooser:
    """The players' answers, read from the scenario once per trace."""
    return ScenarioChooser(view.scenario)


def expected_group_order(view: TraceView, group: list[str]) -> list[str]:
    """The Section 11.3 order of one event's trigger group under option ``same_event_order``."""
    triggers = view.triggers
    if view.options.get("same_event_order") == "object-order":
        order = {(obj["id"], ab["id"]): (n, m) for n, obj in enumerate(view.scenario["objects"])
                 for m, ab in enumerate(obj.get("abilities", ()))}
        return sorted(group, key=lambda t: order.get((triggers[t]["source"], triggers[t]["ability"]), (1 << 30, 0)))
    chooser = _chooser(view)
    players = view.players
    start = players.index(view.active_player)
    ordered: list[str] = []
    for player in players[start:] + players[:start]:
        mine = [t for t in group if triggers[t]["controller"] == player]
        ordered += [mine[k] for k in chooser.order(player, [triggers[t] for t in mine])]
    ordered += [t for t in group if t not in ordered]  # a controller who is not a player: left where it was
    return ordered


@invariant(
    passes=PASSES,
    key="mw.same-event-order",
    ruleset=RULESET,
    rules=RULE,
    summary="One event's trigger group is ordered as Section 11.3 requires (option same_event_order) and as the "
    "players chose.",
    exercised=_groups_to_order,
)
def same_event_order(view: TraceView) -> list[str]:
    found = []
    for group in _groups(view):
        if len(group) < 2:
            continue
        expected = expected_group_order(view, group)
        if expected != group:
            event = view.triggers[group[0]]["event"]
            found.append(f"the trigger group of {view.describe_event(event)} entered its queue as {', '.join(group)}; "
                         f"option same_event_order={view.options.get('same_event_order')} and the players' choices "
                         f"give {', '.join(expected)}")
    return found
