"""Momon Wonder 1.0.0, rule 11.2.3: collecting the triggers of a completed event.

Every waiting trigger is collected; a trigger enters a queue at most once per satisfying event; each trigger group
keeps its event's chronological position; a successful Effect-Based Summon creates a package at its event's
position whose On Summon processing holds that event's waiting triggers; Section 11.3 orders one event's group
(option ``same_event_order``; ``package_contents`` says which triggers a package holds).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from reference_engine.core.choices import ScenarioChooser
from reference_engine.core.invariant import invariant
from reference_engine.rulesets.momon_wonder.observations import MAIN, packages, phase_at, queue_of
from reference_engine.core.traceview import TraceView

RULESET = "momon-wonder"
RULE = {"1.0.0": "11.2.3"}


def _declined_on_trigger(view: TraceView, trigger: str) -> bool:
    removed = view.removed.get(trigger)
    return removed is not None and view.entries[removed]["reason"] == "declined" and not view.enqueues.get(trigger)


def _instances(view: TraceView) -> int:
    return len(view.triggers)


@invariant(
    key="mw.collect-every-trigger",
    ruleset=RULESET,
    rules=RULE,
    summary="Every trigger waiting from a completed event is collected into a queue; none is lost.",
    exercised=_instances,
)
def collect_every_trigger(view: TraceView) -> list[str]:
    return [
        f"{view.describe_trigger(t)} never entered a queue"
        for t in view.triggers
        if not view.enqueues.get(t) and not _declined_on_trigger(view, t)
    ]


@invariant(
    key="mw.once-per-event",
    ruleset=RULESET,
    rules=RULE,
    summary="A trigger enters the queue at most once for each event that satisfies it.",
    exercised=_instances,
)
def once_per_event(view: TraceView) -> list[str]:
    found = []
    seen = Counter((t["source"], t["ability"], t["event"]) for t in view.triggers.values() if t["event"] is not None)
    for (source, ability, event), n in seen.items():
        if n > 1:
            found.append(f"ability {ability} of {source} triggered {n} times from {view.describe_event(event)}; "
                         f"it may enter the queue only once for that event")
    for trigger, indexes in view.enqueues.items():
        if len(indexes) > 1:
            found.append(f"{view.describe_trigger(trigger)} entered a queue {len(indexes)} times "
                         f"(entries {', '.join(map(str, indexes))})")
    for kind, trigger, i in view.repeated:
        if kind == "resolve_begin":
            found.append(f"{view.describe_trigger(trigger)} resolved a second time at entry {i}")
    return found


def _placements(view: TraceView) -> dict[str, list[tuple[int, int, str]]]:
    """Queue -> back placements (entry index, event position, what) in trace order."""
    by_queue: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for i, entry in enumerate(view.entries):
        if entry["kind"] == "enqueue" and entry.get("placement", "back") == "back":
            position = view.position_of(entry["trigger"]) if entry["trigger"] in view.triggers else None
            if position is not None:
                by_queue[entry["queue"]].append((i, position, view.describe_trigger(entry["trigger"])))
        elif entry["kind"] == "package_create" and entry["event"] in view.events:
            by_queue[MAIN].append((i, view.events[entry["event"]]["position"], f"package {entry['package']}"))
    return by_queue


def _placement_pairs(view: TraceView) -> int:
    return sum(max(0, len(p) - 1) for p in _placements(view).values())


@invariant(
    key="mw.group-position",
    ruleset=RULESET,
    rules=RULE,
    summary="Each trigger group, and each package, is placed at its creating event's chronological position.",
    exercised=_placement_pairs,
)
def group_position(view: TraceView) -> list[str]:
    found = []
    for queue, placed in _placements(view).items():
        latest = None
        for i, position, what in placed:
            if latest is not None and position < latest[1]:
                found.append(f"{what} was placed in queue {queue} at entry {i} behind {latest[2]} (event position "
                             f"{latest[1]}), although its own event came earlier (position {position})")
            if latest is None or position >= latest[1]:
                latest = (i, position, what)
    return found


def _successful_summons(view: TraceView) -> int:
    return sum(1 for i in view.by_kind["event"] if view.entries[i]["type"] == "summon")


@invariant(
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
    by_event: dict[str, list[str]] = defaultdict(list)
    for package in seen.values():
        by_event[package.event].append(package.id)
    phases = phase_at(view)
    only_summoned = view.options.get("package_contents") == "summoned-object-triggers"
    for i in view.by_kind["event"]:
        event = view.entries[i]
        made = by_event.get(event["id"], [])
        if event["type"] != "summon":
            if made:
                found.append(f"{view.describe_event(event['id'])} is not a successful Summon, yet package "
                             f"{made[0]} was created for it")
            continue
        if len(made) != 1:
            found.append(f"successful Summon {view.describe_event(event['id'])} created {len(made)} packages, not one")
            continue
        package = made[0]
        for trigger in view.triggers_by_event.get(event["id"], ()):
            if _declined_on_trigger(view, trigger):
                continue
            belongs = not only_summoned or view.triggers[trigger]["source"] == event["subject"]
            queue = queue_of(view).get(trigger)
            enqueued_at = view.enqueues[trigger][0] if view.enqueues.get(trigger) else None
            in_on_summon = enqueued_at is not None and phases[enqueued_at] == "on_summon"
            if belongs and (queue != package or not in_on_summon):
                found.append(f"{view.describe_trigger(trigger)} waited from successful Summon {event['id']} but was not "
                             f"processed in package {package}'s On Summon processing (it went to queue {queue})")
            elif not belongs and queue == package:
                found.append(f"{view.describe_trigger(trigger)} is not the summoned object's, yet it entered package "
                             f"{package} (option package_contents=summoned-object-triggers)")
    return found


def _groups(view: TraceView) -> list[list[str]]:
    """Trigger instances of one event that entered one queue, in the order they entered it."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in view.by_kind["enqueue"]:
        entry = view.entries[i]
        trigger = view.triggers.get(entry["trigger"])
        if trigger is not None and trigger["event"] is not None and entry.get("placement", "back") == "back":
            if entry["trigger"] not in groups[(trigger["event"], entry["queue"])]:
                groups[(trigger["event"], entry["queue"])].append(entry["trigger"])
    return list(groups.values())


def _groups_to_order(view: TraceView) -> int:
    return sum(1 for group in _groups(view) if len(group) > 1)


def expected_group_order(view: TraceView, group: list[str]) -> list[str]:
    """The Section 11.3 order of one event's trigger group under option ``same_event_order``."""
    triggers = view.triggers
    if view.options.get("same_event_order") == "object-order":
        order = {(obj["id"], ab["id"]): (n, m) for n, obj in enumerate(view.scenario["objects"])
                 for m, ab in enumerate(obj.get("abilities", ()))}
        return sorted(group, key=lambda t: order.get((triggers[t]["source"], triggers[t]["ability"]), (1 << 30, 0)))
    chooser = ScenarioChooser(view.scenario)
    players = view.players
    start = players.index(view.active_player)
    ordered: list[str] = []
    for player in players[start:] + players[:start]:
        mine = [t for t in group if triggers[t]["controller"] == player]
        ordered += [mine[k] for k in chooser.order(player, [triggers[t] for t in mine])]
    ordered += [t for t in group if t not in ordered]  # a controller who is not a player: left where it was
    return ordered


@invariant(
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
