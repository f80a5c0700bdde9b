"""Situations: what a scenario's trace shows happening, named, so that exploration can be measured.

A conformance suite only checks what its scenarios reach. Each ruleset lists the situations its vocabulary can
express (a trigger arising during a resolution, a trigger ended without resolving...) as predicates over a trace;
``trigger-conformance coverage`` reports how often each occurs in a run's stream against a goal (at least 2% of
scenarios, or at most 10% for ``nothing-triggers``), with the size of the scenarios (events, nesting) against the
ruleset's :class:`SizeGoals`. :data:`COMMON` holds the situations every ruleset may share; a ruleset whose words
cannot express some of them (a two-player game, no optional trigger) takes :func:`common` without those.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterator

from reference_engine.kernel.traceview import TraceView

AT_LEAST, AT_MOST = "at-least", "at-most"
AT_LEAST_ONCE = "at-least-once"  # a derived situation (reference_engine/kernel/derived.py): reached in one scenario


@dataclass(frozen=True)
class Situation:
    """A named situation: ``occurs(view)`` says whether a trace shows it; ``goal`` is :data:`AT_LEAST` (it must be
    reached often enough) or :data:`AT_MOST` (a waste of the budget when frequent); ``share`` the goal's fraction
    of scenarios."""

    name: str
    description: str
    occurs: Callable[[TraceView], bool]
    goal: str = AT_LEAST
    share: float = 0.02

    def met(self, fraction: float) -> bool:
        if self.goal == AT_LEAST_ONCE:
            return fraction > 0
        return fraction >= self.share if self.goal == AT_LEAST else fraction <= self.share


@dataclass(frozen=True)
class SizeGoals:
    """The size a ruleset's generated scenarios must reach, as medians over a run's stream: ``events`` per scenario
    and ``nesting`` (resolutions deep, see :func:`nesting`). Each ruleset declares its own
    (``Ruleset.size_goals``); the defaults are the bundled rulesets'."""

    events: int = 20
    nesting: int = 3


def depths(view: TraceView) -> dict[str, int]:
    """Event id -> nesting depth: 0 for an event of a scripted action; one more than the triggering event's depth
    for an event of a resolving triggered ability; and for an event of a check or procedure that follows work (a
    game's state check, a trigger being put somewhere: any cause other than an action or a resolution) the depth of
    the resolution it follows, so a chain that goes through such a check keeps counting."""
    found: dict[str, int] = {}
    context = 0  # the depth of the resolution under way or last finished
    for entry in view.entries:
        kind = entry["kind"]
        if kind == "resolve_begin" and entry["trigger"] in view.triggers:
            origin = view.triggers[entry["trigger"]]["event"]
            context = 1 + found.get(origin, context - 1 if origin is None else 0)
        elif kind == "action_begin":
            context = 0
        elif kind == "event":
            ((cause, value),) = entry["cause"].items()
            if cause == "action":
                depth = 0
            elif cause == "resolution" and value in view.triggers:
                origin = view.triggers[value]["event"]
                depth = 1 + found[origin] if origin in found else context
            else:
                depth = context
            found[entry["id"]] = depth
    return found


def nesting(view: TraceView) -> int:
    """The deepest nesting of any event of the trace (see :func:`depths`)."""
    return max(depths(view).values(), default=0)


def triggers_by_event_controller(view: TraceView) -> Iterator[set[str]]:
    """For each event, the set of players controlling a trigger instance from it."""
    table: dict[str, set[str]] = defaultdict(set)
    for trigger in view.triggers.values():
        if trigger["event"] is not None:
            table[trigger["event"]].add(trigger["controller"])
    return iter(table.values())


def _declined(view: TraceView) -> bool:
    return any(view.entries[i].get("decision") == "optional" and view.entries[i].get("chosen") is False
               for i in view.by_kind["choice"])


def _triggered_during_resolution(view: TraceView) -> bool:
    return any(view.events[e]["cause"].get("resolution") for e in view.triggers_by_event if e in view.events)


COMMON: tuple[Situation, ...] = (
    Situation("nothing-triggers", "no ability triggers in the whole scenario (the budget spent on nothing)",
              lambda v: not v.triggers, AT_MOST, 0.10),
    Situation("nesting-3", "an event three resolutions deep: a trigger from an event of a trigger from an event of "
              "a trigger", lambda v: nesting(v) >= 3),
    Situation("events-20", "at least 20 events", lambda v: len(v.events) >= 20),
    Situation("players-3-4", "three or four players", lambda v: len(v.players) >= 3),
    Situation("active-not-first-seat", "three or more players, the active player not first in seat order (turn "
              "order starts from the active player, not from the first seat)",
              lambda v: len(v.players) >= 3 and v.active_player != v.players[0]),
    Situation("non-active-simultaneous", "one event triggers abilities of two or more non-active players",
              lambda v: any(len(players - {v.active_player}) >= 2 for players in triggers_by_event_controller(v))),
    Situation("optional-declined", "an optional trigger its controller declines", _declined),
    Situation("trigger-during-resolution", "an event during a resolution triggers an ability",
              _triggered_during_resolution),
)


def common(*left_out: str) -> tuple[Situation, ...]:
    """:data:`COMMON` without the situations named ``left_out`` (those a ruleset's words cannot express), in order.
    Raises KeyError naming a name that is not one of COMMON's."""
    unknown = sorted(set(left_out) - {s.name for s in COMMON})
    if unknown:
        raise KeyError(f"not common situations: {', '.join(unknown)} (known: {', '.join(s.name for s in COMMON)})")
    return tuple(s for s in COMMON if s.name not in left_out)


def unresolved_for(reason: str) -> Callable[[TraceView], bool]:
    """A situation test: some trigger instance ended without resolving (:attr:`TraceView.unresolved`) by an entry
    whose ``reason`` is ``reason``."""
    return lambda v: any(v.entries[i].get("reason") == reason for i in v.unresolved.values())


def event_of_type(event_type: str) -> Callable[[TraceView], bool]:
    """A situation test: some event of ``event_type`` happened."""
    return lambda v: any(e["type"] == event_type for e in v.events.values())


__all__ = ["AT_LEAST", "AT_LEAST_ONCE", "AT_MOST", "COMMON", "Situation", "SizeGoals", "common", "depths",
           "event_of_type", "nesting", "unresolved_for"]
