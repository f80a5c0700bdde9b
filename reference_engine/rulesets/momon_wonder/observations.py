"""What the Momon Wonder invariants observe in a trace: packages, queues, and the queues replayed entry by entry.

Everything here is derived from the trace alone (never from the engine that wrote it) and computed once per trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reference_engine.core.vocabulary import ZoneTracker
from reference_engine.core.traceview import TraceView, memoized

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


@memoized
def packages(view: TraceView) -> dict[str, PackageSeen]:
    found: dict[str, PackageSeen] = {}
    for i, entry in enumerate(view.entries):
        if entry["kind"] == "package_create":
            found.setdefault(entry["package"], PackageSeen(entry["package"], entry["event"], i))
        elif entry["kind"] in PACKAGE_PHASES and entry["package"] in found:
            found[entry["package"]].phases.setdefault(entry["kind"], []).append(i)
    return found


def package_position(view: TraceView, package: PackageSeen) -> int | None:
    event = view.events.get(package.event)
    return None if event is None else event["position"]


@memoized
def queue_of(view: TraceView) -> dict[str, str]:
    """Trigger id -> the queue its first enqueue named (``main`` or a package id)."""
    return {t: view.entries[idx[0]]["queue"] for t, idx in view.enqueues.items() if idx}


@memoized
def package_open_at(view: TraceView) -> list[str | None]:
    """For every entry index, the package being processed at that entry (between its open and close), or None."""
    current: str | None = None
    out: list[str | None] = []
    for entry in view.entries:
        if entry["kind"] == "package_open":
            current = entry["package"]
        out.append(current)
        if entry["kind"] == "package_close" and entry["package"] == current:
            current = None
    return out


@memoized
def phase_at(view: TraceView) -> list[str | None]:
    """For every entry index, the package phase in progress: on_summon, snatch_check, post_snatch, or None."""
    current: str | None = None
    out: list[str | None] = []
    for entry in view.entries:
        kind = entry["kind"]
        if kind in ("on_summon_begin", "snatch_check_begin", "post_snatch_begin"):
            current = kind[: -len("_begin")]
        out.append(current)
        if kind in ("on_summon_end", "snatch_check_end", "post_snatch_end", "package_close"):
            current = None
    return out


@dataclass(frozen=True)
class Dequeue:
    """An item leaving its queue at entry ``index``; ``waiting`` is what the queue held just before, head first."""

    index: int
    queue: str
    item: str  # a trigger id, or a package id for the Trigger Queue
    waiting: tuple[str, ...]


@memoized
def replayed_queues(view: TraceView) -> list[Dequeue]:
    """Replay every queue from the trace's placements and departures.

    Placements: ``enqueue`` (at the back, or at the front with placement front) and ``package_create`` (the
    package takes its place in the Trigger Queue). Departures: ``resolve_begin`` or ``removed`` of a queued trigger,
    ``package_open`` of a package.
    """
    queues: dict[str, list[str]] = {}
    where: dict[str, str] = {}
    out: list[Dequeue] = []
    for i, entry in enumerate(view.entries):
        kind = entry["kind"]
        if kind == "enqueue":
            queue = queues.setdefault(entry["queue"], [])
            if entry["trigger"] in where:
                continue  # a second enqueue of one instance is mw.once-per-event's business
            where[entry["trigger"]] = entry["queue"]
            if entry.get("placement") == "front":
                queue.insert(0, entry["trigger"])
            else:
                queue.append(entry["trigger"])
        elif kind == "package_create":
            queues.setdefault(MAIN, []).append(entry["package"])
            where[entry["package"]] = MAIN
        elif kind in ("resolve_begin", "removed", "package_open"):
            item = entry["package"] if kind == "package_open" else entry["trigger"]
            name = where.pop(item, None)
            if name is None:
                continue
            queue = queues[name]
            out.append(Dequeue(i, name, item, tuple(queue)))
            queue.remove(item)
    return out


@memoized
def expected_triggers(view: TraceView) -> dict[str, list[tuple[str, str]]]:
    """Event id -> the (source, ability) pairs whose trigger condition the event satisfies, zones replayed from the trace."""
    tracker = ZoneTracker(view.scenario)
    out: dict[str, list[tuple[str, str]]] = {}
    for i in view.by_kind["event"]:
        event = view.entries[i]
        before = tracker.apply(event)
        out[event["id"]] = [(source, ab["id"]) for source, ab in tracker.satisfied_abilities(event, view.scenario, before)]
    return out


@memoized
def zones_at_resolution(view: TraceView) -> dict[str, dict[str, str]]:
    """Trigger id -> zones of every object just as its resolution began."""
    tracker = ZoneTracker(view.scenario)
    out: dict[str, dict[str, str]] = {}
    for entry in view.entries:
        if entry["kind"] == "event":
            tracker.apply(entry)
        elif entry["kind"] == "resolve_begin":
            out[entry["trigger"]] = dict(tracker.zones)
    return out


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
