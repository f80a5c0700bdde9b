"""Ordering checks shared by TA.4 (pairs involving a mandatory trigger) and TA.5 (pairs of optional triggers)."""

from __future__ import annotations

from typing import Callable

from reference_engine.rulesets.redemption.observations import is_optional, ordered_pairs, prefers, replay, seat_order
from reference_engine.core.traceview import TraceView

PairFilter = Callable[[TraceView, str, str], bool]


def involves_mandatory(view: TraceView, a: str, b: str) -> bool:
    return not (is_optional(view, a) and is_optional(view, b))


def both_optional(view: TraceView, a: str, b: str) -> bool:
    return is_optional(view, a) and is_optional(view, b)


def fate(view: TraceView, trigger: str) -> str:
    """What became of a trigger that was still waiting, when it did not take its turn in its place."""
    r = replay(view)
    if trigger in r.turns and r.turns[trigger].in_place:
        return ""
    removed = view.removed.get(trigger)
    if removed is not None and trigger not in r.turns:
        return f" (which was then removed as {view.entries[removed]['reason']} without its turn; the order still holds)"
    return " (which was still waiting then)"


def seat_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of triggers of different players."""
    count = 0
    for batch in replay(view).batches:
        if any(keep(view, a, b) and view.triggers[a]["controller"] != view.triggers[b]["controller"]
               for a, b in ordered_pairs(view, batch)):
            count += 1
    return count


def seat_problems(view: TraceView, keep: PairFilter, what: str) -> list[str]:
    found = []
    seats = seat_order(view)
    for batch in replay(view).batches:
        for a, b in ordered_pairs(view, batch):
            pa, pb = view.triggers[a]["controller"], view.triggers[b]["controller"]
            if pa != pb and keep(view, a, b) and seats.get(pa, 0) > seats.get(pb, 0):
                first = "the active player" if seats.get(pb) == 0 else f"{pb}, earlier in turn order from the active player"
                found.append(f"among {what} that became free together ({', '.join(batch.members)}), "
                             f"{view.describe_trigger(a)} of {pa} took its turn before {view.describe_trigger(b)} of "
                             f"{pb}{fate(view, b)}; {first} goes first (active player {view.active_player}, turn order "
                             f"{', '.join(view.players)})")
                break
    return found


def own_order_occasions(view: TraceView, keep: PairFilter) -> int:
    count = 0
    for batch in replay(view).batches:
        if any(keep(view, a, b) and view.triggers[a]["controller"] == view.triggers[b]["controller"]
               and prefers(view, view.triggers[a]["controller"], a, b) is not None
               for a, b in ordered_pairs(view, batch)):
            count += 1
    return count


def own_order_problems(view: TraceView, keep: PairFilter, what: str) -> list[str]:
    found = []
    for batch in replay(view).batches:
        for a, b in ordered_pairs(view, batch):
            player = view.triggers[a]["controller"]
            if player != view.triggers[b]["controller"] or not keep(view, a, b):
                continue
            if prefers(view, player, a, b) is False:
                found.append(f"{player} chose to take {view.describe_trigger(b)} before {view.describe_trigger(a)} "
                             f"among {what} that became free together, but {a} took its turn first"
                             f"{fate(view, b)}")
    return found
