"""Ordering checks shared by TA.4 (pairs involving a mandatory trigger) and TA.5 (pairs of optional triggers).

A pair is (earlier, later) of one batch (:func:`reference_engine.redemption.judge.observations.ordered_pairs`):
``earlier`` took its turn in its place while ``later`` was still waiting. A batch of n triggers freed together holds
up to n(n-1)/2 pairs, so no check lists them: each walks the batch once (:class:`_Walk`), its members leaving in the
order they left, and asks, at each turn taken in place, about the members still waiting, kept grouped by what the
checks compare (their optional flag, seat or controller, and the holder's answers' key). The messages, and their
order, are those of the pairs taken one by one: taken triggers in the order of their turns, then the waiting ones in
their order in the batch."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Callable

from reference_engine.redemption.judge.observations import (
    Batch, chooser, is_optional, optional_triggers, replay, seat_order,
)
from reference_engine.kernel.traceview import TraceView

# A pair filter: ``keep(view, earlier, later)``; its ``on_flags(optional_earlier, optional_later)`` says the same from
# the two triggers' "optional" flags, which is all the walks below read.
PairFilter = Callable[[TraceView, str, str], bool]


def involves_mandatory(view: TraceView, a: str, b: str) -> bool:
    return not (is_optional(view, a) and is_optional(view, b))


def both_optional(view: TraceView, a: str, b: str) -> bool:
    return is_optional(view, a) and is_optional(view, b)


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


@dataclass
class BatchAnswers:
    """What one walk of a batch (:class:`_Walk`) finds for one pair filter and one seating: the first kept pair whose
    later trigger's player sits before the earlier's (``seat_breach``: (earlier, later) or None), every kept pair of
    one player's triggers whose later one that player's answers put first (``own_breaches``), and whether a kept pair
    of different players' triggers (``seat_occasion``) or of one player's, ordered by the answers (``own_occasion``),
    is there at all."""

    batch: Batch
    seat_breach: tuple[str, str] | None = None
    own_breaches: list[tuple[str, str]] = field(default_factory=list)
    seat_occasion: bool = False
    own_occasion: bool = False


class _Walk:
    """One batch walked in the order its members left it, for one pair filter ``keep`` (its ``on_flags``) and
    ``seats`` (player -> place). :meth:`answers` stops at each trigger that took its turn in its place, when it and
    every member that left before it are no longer waiting, and asks about the waiting members of the pairs that
    trigger begins and ``keep`` keeps, kept grouped by what the questions compare."""

    def __init__(self, view: TraceView, batch: Batch, keep: PairFilter, seats: dict[str, int]):
        self.batch, self.seats, flags = batch, seats, keep.on_flags
        # the flags of the waiting triggers that ``keep`` pairs with a trigger of each flag
        self.kept = {flag: [f for f in (False, True) if flags(flag, f)] for flag in (False, True)}
        optional, triggers, key = optional_triggers(view), view.triggers, chooser(view).order_key
        self.info = {m: (n, m in optional, triggers[m]["controller"], key(triggers[m]))
                     for n, m in enumerate(batch.members)}
        self.waiting = {False: {}, True: {}}  # flag -> controller -> how many wait
        self.ranked: dict[tuple, list] = {}  # (controller, flag) -> sorted [(answers' key, place in the batch)] waiting
        self.seated: dict[tuple, list] = {}  # (seat, flag) -> places in the batch, in order (the left ones skipped)
        self.first: dict[tuple, int] = {}  # (seat, flag) -> how many of ``seated`` are known to have left
        self.gone: set[int] = set()  # places of the members that left
        for n, flag, player, k in self.info.values():
            counts = self.waiting[flag]
            counts[player] = counts.get(player, 0) + 1
            self.ranked.setdefault((player, flag), []).append((k, n))
            self.seated.setdefault((seats.get(player, 0), flag), []).append(n)
        for ranked in self.ranked.values():
            ranked.sort()

    def answers(self) -> BatchAnswers:
        found = BatchAnswers(self.batch)
        taken = set(self.batch.taken)
        for m in self.batch.left:
            n, flag, player, k = self.info[m]
            self.gone.add(n)
            self.waiting[flag][player] -= 1
            ranked = self.ranked[player, flag]
            del ranked[bisect_left(ranked, (k, n))]
            if m not in taken:
                continue
            kept = self.kept[flag]
            if found.seat_breach is None:
                b = self.first_seated_before(player, kept)
                found.seat_breach = None if b is None else (m, b)
            preferred = [self.ranked.get((player, f), ()) for f in kept]
            found.own_breaches += [(m, b) for b in self.preferred_to(k, preferred)]
            found.seat_occasion = found.seat_occasion or any(
                count for f in kept for other, count in self.waiting[f].items() if other != player)
            found.own_occasion = found.own_occasion or any(  # sorted by key: another key is at one end
                ranked and (ranked[0][0] != k or ranked[-1][0] != k) for ranked in preferred)
        return found

    def first_seated_before(self, player: str, kept: list[bool]) -> str | None:
        """The first waiting trigger (in the batch's order) with a flag in ``kept`` of a player whose seat comes
        before ``player``'s."""
        seat = self.seats.get(player, 0)
        best = None
        for (other, flag), places in self.seated.items():
            if flag not in kept or other >= seat:
                continue
            k = self.first.get((other, flag), 0)
            while k < len(places) and places[k] in self.gone:
                k += 1
            self.first[other, flag] = k
            if k < len(places) and (best is None or places[k] < best):
                best = places[k]
        return None if best is None else self.batch.members[best]

    def preferred_to(self, key: tuple, groups: list) -> list[str]:
        """The waiting triggers of ``groups`` (each sorted by answers' key) that the answers put strictly before a
        trigger of answers' key ``key``, in the batch's order."""
        places = sorted(n for ranked in groups for _, n in ranked[:bisect_left(ranked, (key, -1))])
        return [self.batch.members[n] for n in places]


def batch_answers(view: TraceView, keep: PairFilter, seats: dict[str, int] | None = None) -> list[BatchAnswers]:
    """:class:`BatchAnswers` of every batch that holds a pair (a turn taken in place with another member still
    waiting), for pair filter ``keep`` and ``seats`` (player -> place, 0 first, an unknown player 0; default
    :func:`seat_order`, turn order from the active player: a draft may give another order). Computed once per trace,
    filter and seating: a rule's check and its count read the same walks."""
    seats = seat_order(view) if seats is None else seats
    table = view.memo.setdefault(f"{__name__}.batch_answers", {})
    memo_key = (keep, tuple(sorted(seats.items())))
    if memo_key not in table:
        table[memo_key] = [_Walk(view, batch, keep, seats).answers() for batch in replay(view).batches
                           if batch.taken and len(batch.members) > 1]
    return table[memo_key]


def seat_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of triggers of different players."""
    return sum(1 for found in batch_answers(view, keep) if found.seat_occasion)


def seat_problems(view: TraceView, keep: PairFilter, what: str, seats: dict[str, int] | None = None) -> list[str]:
    """Pairs of different players' triggers taken against ``seats`` (player -> place, 0 first; default
    :func:`seat_order`): the first such pair of each batch (:attr:`BatchAnswers.seat_breach`)."""
    out = []
    seats = seat_order(view) if seats is None else seats
    triggers = view.triggers
    for found in batch_answers(view, keep, seats):
        if found.seat_breach is None:
            continue
        a, b = found.seat_breach
        pa, pb = triggers[a]["controller"], triggers[b]["controller"]
        first = "the active player" if seats.get(pb) == 0 else f"{pb}, earlier in turn order from the active player"
        out.append(f"among {what} that became free together ({', '.join(found.batch.members)}), "
                   f"{view.describe_trigger(a)} of {pa} took its turn before {view.describe_trigger(b)} of "
                   f"{pb}{fate(view, b)}; {first} goes first (active player {view.active_player}, turn order "
                   f"{', '.join(view.players)})")
    return out


def own_order_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of one player's triggers that the player's answers order."""
    return sum(1 for found in batch_answers(view, keep) if found.own_occasion)


def own_order_problems(view: TraceView, keep: PairFilter, what: str) -> list[str]:
    """Every kept pair of one player's triggers taken against the order the player chose
    (:attr:`BatchAnswers.own_breaches`)."""
    return [f"{view.triggers[a]['controller']} chose to take {view.describe_trigger(b)} before "
            f"{view.describe_trigger(a)} among {what} that became free together, but {a} took its turn first"
            f"{fate(view, b)}" for found in batch_answers(view, keep) for a, b in found.own_breaches]
