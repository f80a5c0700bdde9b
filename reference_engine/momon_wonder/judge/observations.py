"""What the Momon Wonder invariants observe in a trace: packages, queues, and the queues replayed entry by entry.

Everything here is derived from the trace alone (never from the engine that wrote it) and computed once per trace.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from reference_engine.kernel.vocabulary import IN_PLAY, ZoneTracker, movement_event
from reference_engine.momon_wonder.judge.vocabulary import LEAVING
from reference_engine.kernel.traceview import TraceView, memoized, streamed

MAIN = "main"
PACKAGE_PHASES = (
    "package_open", "on_summon_begin", "on_summon_end", "snatch_check_begin",
    "snatch_check_end", "post_snatch_begin", "post_snatch_end", "package_close",
)


@dataclass
class PackageSeen:
    """One Effect-Based Summon package as the trace shows it: entry indexes of its creation and of each phase."""

    id: str
    event: str
    created: int
    phases: dict[str, list[int]] = field(default_factory=dict)

    def at(self, phase: str) -> int | None:
        found = self.phases.get(phase)
        return found[0] if found else None

    @property
    def span(self) -> tuple[int, int] | None:
        opened, closed = self.at("package_open"), self.at("package_close")
        return (opened, closed) if opened is not None and closed is not None else None


@streamed("package_create", *PACKAGE_PHASES)
def packages(view: TraceView):
    """Package id -> :class:`PackageSeen` (streamed: entries of package kinds only)."""
    found: dict[str, PackageSeen] = {}

    def see(i: int, entry: dict[str, Any]) -> None:
        if entry["kind"] == "package_create":
            found.setdefault(entry["package"], PackageSeen(entry["package"], entry["event"], i))
        elif entry["package"] in found:
            found[entry["package"]].phases.setdefault(entry["kind"], []).append(i)

    return see, lambda: found


def package_position(view: TraceView, package: PackageSeen) -> int | None:
    return None if package.event not in view.events else group_position(view, package.event)


@memoized
def enqueues(view: TraceView) -> dict[str, list[int]]:
    """Trigger id -> indexes of its ``enqueue`` entries, in trace order (one, in a trace that follows 11.2.3)."""
    found: dict[str, list[int]] = {}
    for i in view.by_kind.get("enqueue", ()):
        found.setdefault(view.entries[i]["trigger"], []).append(i)
    return found


def sbc_checks(view: TraceView) -> list[int]:
    """Indexes of the trace's ``sbc_check`` entries (State-Based Conditions checks), in trace order."""
    return view.by_kind.get("sbc_check", [])


@memoized
def queue_of(view: TraceView) -> dict[str, str]:
    """Trigger id -> the queue its first enqueue named (``main`` or a package id)."""
    return {t: view.entries[idx[0]]["queue"] for t, idx in enqueues(view).items() if idx}


def _segments(view: TraceView, begins: dict[str, Any], ends, close) -> list:
    """For every entry index, the value of the segment it falls in, or None: entry kinds in ``begins`` open a segment
    (``begins[kind](entry)`` is its value, from that entry on), kinds in ``ends`` close it after that entry when
    ``close(entry, value)`` says so. Only the entries of those kinds are read (from the view's kind index)."""
    total = len(view.entries)
    out: list = [None] * total
    current, since = None, 0
    entries = view.entries
    for i in view.indexes_of(*begins, *ends):
        entry = entries[i]
        kind = entry["kind"]
        if kind in begins:
            if current is not None:
                out[since:i] = [current] * (i - since)
            current, since = begins[kind](entry), i
        elif current is not None and close(entry, current):
            out[since:i + 1] = [current] * (i + 1 - since)
            current, since = None, i + 1
    if current is not None:
        out[since:] = [current] * (total - since)
    return out


@memoized
def package_open_at(view: TraceView) -> list[str | None]:
    """For every entry index, the package being processed at that entry (between its open and close), or None."""
    return _segments(view, {"package_open": lambda entry: entry["package"]}, ("package_close",),
                     lambda entry, current: entry["package"] == current)


_PHASE_BEGINS = {"on_summon_begin": "on_summon", "snatch_check_begin": "snatch_check", "post_snatch_begin": "post_snatch"}
_PHASE_ENDS = frozenset({"on_summon_end", "snatch_check_end", "post_snatch_end", "package_close"})


@memoized
def phase_at(view: TraceView) -> list[str | None]:
    """For every entry index, the package phase in progress: on_summon, snatch_check, post_snatch, or None."""
    return _segments(view, {kind: (lambda entry, phase=phase: phase) for kind, phase in _PHASE_BEGINS.items()},
                     _PHASE_ENDS, lambda entry, current: True)


@dataclass(frozen=True)
class Dequeue:
    """An item leaving its queue at entry ``index``; ``waiting`` is what the queue held just before, head first."""

    index: int
    queue: str
    item: str  # a trigger id, or a package id for the Trigger Queue
    waiting: Sequence[str]


class Waiting(Sequence[str]):
    """A read-only slice ``items[start:stop]`` of a list no one changes within that range: what a queue held at one
    moment, without a copy (a copy per departure would cost departures x queue length on a long trace)."""

    __slots__ = ("_items", "_start", "_stop")

    def __init__(self, items: list[str], start: int, stop: int):
        self._items, self._start, self._stop = items, start, stop

    def __len__(self) -> int:
        return self._stop - self._start

    def __getitem__(self, k):
        if isinstance(k, slice):
            return tuple(self)[k]
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        return self._items[self._start + (k % len(self))]

    def __iter__(self) -> Iterator[str]:
        return itertools.islice(self._items, self._start, self._stop)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Waiting({list(self)!r})"


class _ReplayedQueue:
    """One queue as an append-only list and the index of its head: leaving from the head and joining at the back
    change nothing earlier :class:`Waiting` slices see; anything else (joining at the front, leaving from the
    middle) starts a new list."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.head = 0

    def waiting(self) -> Waiting:
        return Waiting(self.items, self.head, len(self.items))

    def append(self, item: str) -> None:
        self.items.append(item)

    def insert_front(self, item: str) -> None:
        self.items, self.head = [item, *self.items[self.head:]], 0

    def remove(self, item: str) -> None:
        if self.head < len(self.items) and self.items[self.head] == item:
            self.head += 1
        else:
            rest = self.items[self.head:]
            rest.remove(item)
            self.items, self.head = rest, 0


@streamed("enqueue", "package_create", "resolve_begin", "removed", "package_open")
def replayed_queues(view: TraceView):
    """Replay every queue from the trace's placements and departures.

    Placements: ``enqueue`` (at the back, or at the front with placement front) and ``package_create`` (the
    package takes its place in the Trigger Queue). Departures: ``resolve_begin`` or ``removed`` of a queued trigger,
    ``package_open`` of a package.
    """
    queues: dict[str, _ReplayedQueue] = {}
    where: dict[str, str] = {}
    out: list[Dequeue] = []

    def see(i: int, entry: dict[str, Any]) -> None:
        kind = entry["kind"]
        if kind == "enqueue":
            queue = queues.setdefault(entry["queue"], _ReplayedQueue())
            if entry["trigger"] in where:
                return  # a second enqueue of one instance is mw.once-per-event's business
            where[entry["trigger"]] = entry["queue"]
            if entry.get("placement") == "front":
                queue.insert_front(entry["trigger"])
            else:
                queue.append(entry["trigger"])
        elif kind == "package_create":
            queues.setdefault(MAIN, _ReplayedQueue()).append(entry["package"])
            where[entry["package"]] = MAIN
        else:
            item = entry["package"] if kind == "package_open" else entry["trigger"]
            name = where.pop(item, None)
            if name is None:
                return
            queue = queues[name]
            out.append(Dequeue(i, name, item, queue.waiting()))
            queue.remove(item)

    return see, lambda: out


@memoized
def expected_triggers(view: TraceView) -> dict[str, list[tuple[str, str]]]:
    """Event id -> the (source, ability) pairs whose trigger condition the event satisfies, zones replayed from the
    trace. The occurrences of one event (a shared ``group``) are judged together, once all have happened, and an
    ability is listed once for the whole event, under the first occurrence that satisfies it (11.2.3)."""
    tracker = ZoneTracker(view.scenario, LEAVING)
    out: dict[str, list[tuple[str, str]]] = {}
    groups, keys, scenario = group_events(view), event_group(view), view.scenario
    for i in view.by_kind["event"]:
        event = view.entries[i]
        if event["id"] in out:
            continue
        members = groups[keys[event["id"]]]
        if len(members) == 1:  # one occurrence (the common case): nothing to list once for the whole event
            before = tracker.apply(event)
            out[event["id"]] = [(source, ab["id"]) for source, ab in tracker.satisfied_abilities(event, scenario, before)]
            continue
        occurrences = [view.events[e] for e in members]
        befores = [tracker.apply(occurrence) for occurrence in occurrences]
        seen: set[tuple[str, str]] = set()
        for occurrence, before in zip(occurrences, befores):
            pairs = [(source, ab["id"]) for source, ab in tracker.satisfied_abilities(occurrence, view.scenario, before)]
            out[occurrence["id"]] = [pair for pair in pairs if pair not in seen]
            seen.update(pairs)
    return out


_SNAPSHOT_KINDS = frozenset({"action_begin", "resolve_begin", "removed", "snatch_check_begin", "sbc_check"})


@streamed("event", *_SNAPSHOT_KINDS)
def zones_before(view: TraceView):
    """Entry index -> zones of every object just before that entry, for the entries where the invariants need them
    (the start of an action, a resolution or a Snatch Check; a removal; a State-Based Conditions check). One replay
    of the trace's zone changes serves them all. Entries with no object moved between them share one read-only
    snapshot (a copy per entry would cost entries x objects: gigabytes on a long trace)."""
    tracker = ZoneTracker(view.scenario, LEAVING)
    out: dict[int, Mapping[str, str]] = {}
    current: list[Mapping[str, str] | None] = [None]  # the snapshot since the last move, None after a move

    def see(i: int, entry: dict[str, Any]) -> None:
        if entry["kind"] == "event":
            if tracker.apply(entry):
                current[0] = None
        else:
            if current[0] is None:
                current[0] = MappingProxyType(dict(tracker.zones))
            out[i] = current[0]

    return see, lambda: out


@memoized
def zones_at_resolution(view: TraceView) -> dict[str, dict[str, str]]:
    """Trigger id -> zones of every object just as its resolution began."""
    snapshots = zones_before(view)
    return {view.entries[i]["trigger"]: snapshots[i] for i in sorted(view.resolve_begin.values())}


def completion_of(view: TraceView, event: dict[str, Any]) -> int | None:
    """Index of the entry that completes the action, resolution or check during which ``event`` happened."""
    ((kind, value),) = event["cause"].items()
    if kind == "resolution":
        return view.resolve_end.get(value)
    if kind == "snatch_check":
        package = packages(view).get(value)
        return None if package is None else package.at("snatch_check_end")
    if kind == "action":
        for i in view.by_kind["action_end"]:
            if view.entries[i]["action"] == value and i > view.event_index[event["id"]]:
                return i
        return None
    return view.event_index[event["id"]]  # an event of a State-Based Conditions check completes at once


# -- What the scenario's effects do, read from the rule text's vocabulary (marks leave no event in a trace) ---------

SUMMONABLE_ZONES = ("hand", "deck")  # the schema's modelling decision: a Summon of an object elsewhere fails


def walk_effect(effect, zones: dict[str, str], failed_summon_event: bool, source: str | None = None):
    """Walk the primitive actions of ``effect`` (of ``source``) from ``zones`` (updated in place) as they are performed.

    Yields ``("event", type, subject)`` for each event an action must cause and ``("mark", object)`` for each object
    the effect marks for defeat while it is in play (a mark causes no event; State-Based Conditions act on it).
    """
    for action in effect or ():
        do = action["do"]
        if do == "summon":
            monsters = summonable(action, zones)
            if action["succeeds"] and monsters:
                for obj in monsters:  # one Summon event, one occurrence per monster
                    zones[obj] = IN_PLAY
                    yield ("event", "summon", obj)
            elif failed_summon_event:
                yield ("event", "summon_failed", action["object"])
        elif do == "move":
            obj, to = action["object"], action["to"]
            if obj in zones and zones[obj] != to:
                yield ("event", movement_event(zones[obj], to), obj)
                zones[obj] = to
        elif do == "mark_defeat":
            if zones.get(action["object"]) == IN_PLAY:
                yield ("mark", action["object"])
        elif do == "signal":
            yield ("event", "signal", action.get("subject", source))


def summonable(action: dict[str, Any], zones: dict[str, str]) -> list[str]:
    """The monsters an Effect-Based Summon action summons if it succeeds: those of ``object`` and ``also`` in hand or
    deck (the scenario format's modelling decision), each once."""
    out: list[str] = []
    for obj in (action["object"], *action.get("also", ())):
        if obj not in out and zones.get(obj) in SUMMONABLE_ZONES:
            out.append(obj)
    return out


def _causing_effect(view: TraceView, event: dict[str, Any]):
    """The effect (list of primitive actions) whose performance caused ``event``, or None."""
    ((kind, value),) = event["cause"].items()
    if kind == "resolution" and value in view.triggers:
        return (view.ability_of(value) or {}).get("effect")
    if kind == "action":
        step, index = value
        try:
            return view.scenario["script"][step]["actions"][index]["effect"]
        except (IndexError, KeyError, TypeError):
            return None
    if kind == "snatch_check":
        return snatch_check_of(view, value)
    return None


def snatch_check_of(view: TraceView, package_id: str) -> list[dict[str, Any]]:
    """The Snatch Check actions of package ``package_id``: those of the successful Summon action that made it."""
    package = packages(view).get(package_id)
    event = view.events.get(package.event) if package else None
    if event is None:
        return []
    for action in _causing_effect(view, event) or ():
        if action["do"] == "summon" and action["succeeds"] and event.get("subject") in (action["object"], *action.get("also", ())):
            return action.get("snatch_check", [])
    return []


@dataclass(frozen=True)
class Unit:
    """A completed piece of work after which State-Based Conditions are due (11.2.2): a scripted action, a resolved
    ability or a package's Snatch Check, from its ``begin`` entry to its ``end`` entry, and what it marked."""

    kind: str  # action, resolution, snatch_check
    name: Any
    begin: int
    end: int
    marked: tuple[str, ...]


@memoized
def units(view: TraceView) -> list[Unit]:
    """Every completed unit of work in trace order, with the objects its effect marked for defeat (zones replayed)."""
    snapshots = zones_before(view)
    failed_event = view.options.get("failed_summon_event", "ordinary-event") == "ordinary-event"
    begin_kind = {"action_begin": "action", "resolve_begin": "resolution", "snatch_check_begin": "snatch_check"}
    end_kind = {"action_end": "action", "resolve_end": "resolution", "snatch_check_end": "snatch_check"}
    open_units: dict[Any, tuple[str, Any, int, tuple[str, ...]]] = {}
    out: list[Unit] = []
    entries = view.entries
    marking: dict[int, tuple[list, bool]] = {}  # id(effect) -> (effect, whether it marks): asked once per effect
    for i in view.indexes_of(*begin_kind, *end_kind):  # only the entries that begin or end a unit, in trace order
        entry = entries[i]
        kind = entry["kind"]
        if kind in begin_kind:
            unit_kind = begin_kind[kind]
            name = _unit_name(entry, unit_kind)
            marked: list[str] = []
            effect = unit_effect(view, entry)
            known = marking.get(id(effect))  # (the effect is kept with its answer: its id is not reused meanwhile)
            if known is None:
                known = marking[id(effect)] = (effect, any(action["do"] == "mark_defeat" for action in effect))
            if known[1]:  # else the effect marks nothing
                for step_ in walk_effect(effect, dict(snapshots[i]), failed_event):
                    if step_[0] == "mark" and step_[1] not in marked:
                        marked.append(step_[1])
            open_units[(unit_kind, name)] = (unit_kind, name, i, tuple(marked))
        elif kind in end_kind:
            unit_kind = end_kind[kind]
            found = open_units.pop((unit_kind, _unit_name(entry, unit_kind)), None)
            if found is not None:
                out.append(Unit(unit_kind, found[1], found[2], i, found[3]))
    return out


def unit_effect(view: TraceView, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The primitive actions performed between ``entry`` (an action_begin, resolve_begin or snatch_check_begin) and
    its end: the scripted action's effect, the resolving ability's effect, or the package's Snatch Check."""
    kind = entry["kind"]
    if kind == "action_begin":
        step, index = entry["action"]
        try:
            return view.scenario["script"][step]["actions"][index]["effect"]
        except (IndexError, KeyError, TypeError):
            return []
    if kind == "resolve_begin":
        return (view.ability_of(entry["trigger"]) or {}).get("effect", []) if entry["trigger"] in view.triggers else []
    return snatch_check_of(view, entry["package"])


def _unit_name(entry: dict[str, Any], unit_kind: str):
    if unit_kind == "action":
        return tuple(entry["action"])
    if unit_kind == "resolution":
        return entry["trigger"]
    return entry["package"]


@dataclass(frozen=True)
class SbcExpectation:
    """One State-Based Conditions check (entry ``index``, id ``check``): the objects it must defeat (marked since the
    previous check and still in play) and the objects it did defeat, in trace order."""

    index: int
    check: str
    must_defeat: tuple[str, ...]
    defeated: tuple[str, ...]


@memoized
def sbc_expectations(view: TraceView) -> list[SbcExpectation]:
    """Replay the marks for defeat through the trace: each check acts on every mark made since the previous one."""
    ends = {u.end: u for u in units(view)}
    snapshots = zones_before(view)
    events_of: dict[str, list[str]] = {}
    for i in view.by_kind["event"]:
        event = view.entries[i]
        ((kind, value),) = event["cause"].items()
        if kind == "sbc" and event["type"] == "defeated":
            events_of.setdefault(value, []).append(event.get("subject"))
    sbc_events = bool(view.options.get("sbc_events", True))
    pending: list[str] = []
    out: list[SbcExpectation] = []
    for i in sorted([*ends, *sbc_checks(view)]):
        if i in ends:
            pending += [m for m in ends[i].marked if m not in pending]
        else:
            entry = view.entries[i]
            due = tuple(m for m in pending if snapshots[i].get(m) == IN_PLAY) if sbc_events else ()
            out.append(SbcExpectation(i, entry["id"], due, tuple(events_of.get(entry["id"], ()))))
            pending = []
    return out


# -- One event, several occurrences (an Effect-Based Summon of several monsters) ------------------------------------


@memoized
def event_group(view: TraceView) -> dict[str, str]:
    """Event id -> the key of the event it is part of: its ``group`` (events sharing one are one event with several
    occurrences, e.g. a Summon of several monsters), or its own id."""
    return {e: view.events[e].get("group") or e for e in view.events}


@memoized
def group_events(view: TraceView) -> dict[str, list[str]]:
    """Group key -> its occurrences' event ids, in trace order."""
    out: dict[str, list[str]] = {}
    for e, key in event_group(view).items():
        out.setdefault(key, []).append(e)
    for events in out.values():
        events.sort(key=lambda e: view.event_index[e])
    return out


def group_position(view: TraceView, event_id: str) -> int:
    """The chronological position of the whole event an occurrence belongs to: its first occurrence's."""
    return _group_positions(view)[event_id]


@memoized
def _group_positions(view: TraceView) -> dict[str, int]:
    """Event id -> :func:`group_position`, for every event of the trace."""
    keys, groups, events = event_group(view), group_events(view), view.events
    return {e: events[groups[key][0]]["position"] for e, key in keys.items()}


def trigger_position(view: TraceView, trigger_id: str) -> int | None:
    """The position of the event a trigger instance came from (None for a restored trigger); KeyError for an id
    that is no trigger of the trace."""
    return _trigger_positions(view)[trigger_id]


@memoized
def _trigger_positions(view: TraceView) -> dict[str, int | None]:
    """Trigger id -> :func:`trigger_position`, for every trigger of the trace (rules ask for it per entry)."""
    positions = _group_positions(view)
    return {t: positions.get(trigger["event"]) for t, trigger in view.triggers.items()}


trigger_positions = _trigger_positions  # the whole table, for a rule that asks for every trigger's position


def summoned_by(view: TraceView, event_id: str) -> list[str]:
    """The monsters the Summon event ``event_id`` (any of its occurrences) summoned."""
    return [view.events[e].get("subject") for e in group_events(view)[event_group(view)[event_id]]]


@memoized
def one_summon_occurrences(view: TraceView) -> list[tuple[str, ...]]:
    """For each Effect-Based Summon action that summoned two or more monsters, the ids of the events its work caused
    for them, in order: they are one Summon event, so they must share one ``group`` and no other event may join it.
    Events are matched to actions by replaying each action, ability or Snatch Check's effect in order (a unit whose
    events do not match its effect is mw.resolve-completely's business and is skipped here)."""
    snapshots = zones_before(view)
    failed_event = view.options.get("failed_summon_event", "ordinary-event") == "ordinary-event"
    out: list[tuple[str, ...]] = []
    entries = view.entries
    for i in view.indexes_of("action_begin", "resolve_begin", "snatch_check_begin"):
        entry = entries[i]
        kind = entry["kind"]
        if kind == "action_begin":
            cause, source = ("action", tuple(entry["action"])), None
        elif kind == "resolve_begin" and entry["trigger"] in view.triggers:
            cause, source = ("resolution", entry["trigger"]), view.triggers[entry["trigger"]]["source"]
        elif kind == "snatch_check_begin":
            cause, source = ("snatch_check", entry["package"]), None
        else:
            continue
        effect = unit_effect(view, entry)
        if not any(action["do"] == "summon" and action.get("also") for action in effect):
            continue  # only a Summon naming more monsters than its object can summon two or more
        caused = view.events_by_cause.get(cause, [])
        zones, k, found = dict(snapshots[i]), 0, []
        for action in effect:
            steps = [x for x in walk_effect([action], zones, failed_event, source) if x[0] == "event"]
            if action["do"] == "summon" and len(steps) >= 2:
                found.append((k, len(steps)))
            k += len(steps)
        if k != len(caused):
            continue
        for start, n in found:
            out.append(tuple(e["id"] for e in caused[start:start + n]))
    return out


# The streamed observations above: every Momon Wonder invariant declares them as its passes, so that the judge computes
# them all in the one pass over a trace that the rules of an edition share.
PASSES = (packages, replayed_queues, zones_before)
