"""Ordering checks shared by TA.4 (pairs involving a mandatory trigger) and TA.5 (pairs of optional triggers)."""

from __future__ import annotations

from typing import Callable

from reference_engine.redemption.judge.observations import (
    is_optional, optional_triggers, ordered_pairs, prefers, replay, seat_order,
)
from reference_engine.kernel.traceview import TraceView, memoized

PairFilter = Callable[[TraceView, str, str], bool]


def involves_mandatory(view: TraceView, a: str, b: str) -> bool:
    return not (is_optional(view, a) and is_optional(view, b))


def both_optional(view: TraceView, a: str, b: str) -> bool:
    return is_optional(view, a) and is_optional(view, b)


# The same filters on the pair's two "optional" flags (what _kept uses, to avoid two lookups per pair and filter).
involves_mandatory.on_flags = lambda optional_a, optional_b: not (optional_a and optional_b)
both_optional.on_flags = lambda optional_a, optional_b: optional_a and optional_b


def fate(view: TraceView, trigger: str) -> str:
    """What became of a trigger that was still waiting, when it did not take its turn in its place."""
    r = replay(view)
    if trigger in r.turns and r.turns[trigger].in_place:
        return ""
    removed = view.unresolved.get(trigger)
    if removed is not None and trigger not in r.turns:
        return f" (which was then removed as {view.entries[removed]['reason']} without its turn; the order still holds)"
    return " (which was still waiting then)"


@memoized
def _pairs(view: TraceView) -> list:
    """For each batch, its ordered pairs with both controllers: (batch, [(earlier, later, its controller, the later's
    controller), ...]). Four rules read them twice each (check and count): they are listed once per trace."""
    triggers, optional = view.triggers, optional_triggers(view)
    return [(batch, [(a, b, triggers[a]["controller"], triggers[b]["controller"], a in optional, b in optional)
                     for a, b in ordered_pairs(view, batch)])
            for batch in replay(view).batches]


def _kept(view: TraceView, keep: PairFilter) -> list:
    """:func:`_pairs` with, for each pair, whether ``keep`` keeps it (computed once per trace and filter)."""
    table = view.memo.setdefault(f"{__name__}._kept", {})
    if keep not in table:
        flags = getattr(keep, "on_flags", None)
        table[keep] = [(batch, [(a, b, pa, pb) for a, b, pa, pb, oa, ob in pairs
                                if (flags(oa, ob) if flags is not None else keep(view, a, b))])
                       for batch, pairs in _pairs(view)]
    return table[keep]


def _prefers(view: TraceView, player: str, a: str, b: str) -> bool | None:
    """:func:`prefers`, asked once per trace for each pair."""
    table = view.memo.setdefault(f"{__name__}._prefers", {})
    key = (player, a, b)
    if key not in table:
        table[key] = prefers(view, player, a, b)
    return table[key]


def seat_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of triggers of different players."""
    return sum(1 for _, pairs in _kept(view, keep) if any(pa != pb for _, _, pa, pb in pairs))


def seat_problems(view: TraceView, keep: PairFilter, what: str, seats: dict[str, int] | None = None) -> list[str]:
    """Pairs of different players' triggers taken against ``seats`` (player -> place, 0 first; default
    :func:`seat_order`, turn order from the active player: a draft may give another order)."""
    found = []
    seats = seat_order(view) if seats is None else seats
    for batch, pairs in _kept(view, keep):
        for a, b, pa, pb in pairs:
            if pa != pb and seats.get(pa, 0) > seats.get(pb, 0):
                first = "the active player" if seats.get(pb) == 0 else f"{pb}, earlier in turn order from the active player"
                found.append(f"among {what} that became free together ({', '.join(batch.members)}), "
                             f"{view.describe_trigger(a)} of {pa} took its turn before {view.describe_trigger(b)} of "
                             f"{pb}{fate(view, b)}; {first} goes first (active player {view.active_player}, turn order "
                             f"{', '.join(view.players)})")
                break
    return found


def own_order_occasions(view: TraceView, keep: PairFilter) -> int:
    return sum(1 for _, pairs in _kept(view, keep)
               if any(pa == pb and _prefers(view, pa, a, b) is not None for a, b, pa, pb in pairs))


def own_order_problems(view: TraceView, keep: PairFilter, what: str) -> list[str]:
    found = []
    for _, pairs in _kept(view, keep):
        for a, b, player, pb in pairs:
            if player == pb and _prefers(view, player, a, b) is False:
                found.append(f"{player} chose to take {view.describe_trigger(b)} before {view.describe_trigger(a)} "
                             f"among {what} that became free together, but {a} took its turn first"
                             f"{fate(view, b)}")
    return found
