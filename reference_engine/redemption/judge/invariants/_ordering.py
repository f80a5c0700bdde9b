"""Ordering checks shared by TA.4 (pairs involving a mandatory trigger) and TA.5 (pairs of optional triggers).

A pair is (earlier, later) of one batch (:func:`reference_engine.redemption.judge.observations.ordered_pairs`):
``earlier`` took its turn in its place while ``later`` was still waiting. A batch of n triggers freed together holds
up to n(n-1)/2 pairs, so no check lists them: each walks the batch once (:class:`_Walk`), its members leaving in the
order they left, and asks, at each turn taken in place, about the members still waiting, kept grouped by what the
checks compare (their optional flag, seat or controller, and the holder's answers' key). The messages, and their
order, are those of the pairs taken one by one: taken triggers in the order of their turns, then the waiting ones in
their order in the batch."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from typing import Callable, Iterator

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


class _Walk:
    """One batch walked in the order its members left it, for one pair filter ``keep`` (its ``on_flags``) and
    ``seats`` (player -> place; None when no seat is asked about). :meth:`turns` yields each trigger that took its turn
    in its place, when it and every member that left before it are no longer waiting; the other methods then answer
    about the waiting members of the pairs that trigger begins and ``keep`` keeps."""

    def __init__(self, view: TraceView, batch: Batch, keep: PairFilter, seats: dict[str, int] | None = None):
        self.batch, self.seats = batch, seats
        self.flags = keep.on_flags
        optional, triggers, c = optional_triggers(view), view.triggers, chooser(view)
        self.info = {m: (n, m in optional, triggers[m]["controller"], c.order_key(triggers[m]))
                     for n, m in enumerate(batch.members)}
        self.by_flag: dict[bool, Counter] = {False: Counter(), True: Counter()}  # flag -> controller -> waiting
        self.keys: dict[tuple, Counter] = {}  # (controller, flag) -> answers' key -> waiting
        self.ranked: dict[tuple, list] = {}  # (controller, flag) -> sorted [(key, place in the batch)] waiting
        self.seated: dict[tuple, list] = {}  # (seat, flag) -> places in the batch, in order (the left ones skipped)
        self.first: dict[tuple, int] = {}  # (seat, flag) -> how many of ``seated`` are known to have left
        self.gone: set[int] = set()  # places of the members that left
        for m, (n, flag, player, key) in self.info.items():
            self.by_flag[flag][player] += 1
            self.keys.setdefault((player, flag), Counter())[key] += 1
            self.ranked.setdefault((player, flag), []).append((key, n))
            if seats is not None:
                self.seated.setdefault((seats.get(player, 0), flag), []).append(n)
        for ranked in self.ranked.values():
            ranked.sort()

    def turns(self) -> Iterator[str]:
        taken = set(self.batch.taken)
        for m in self.batch.left:
            n, flag, player, key = self.info[m]
            self.gone.add(n)
            self.by_flag[flag][player] -= 1
            self.keys[player, flag][key] -= 1
            ranked = self.ranked[player, flag]
            del ranked[bisect_left(ranked, (key, n))]
            if m in taken:
                yield m

    def kept(self, t: str) -> list[bool]:
        """The flags of the waiting triggers that ``keep`` pairs with ``t``."""
        flag = self.info[t][1]
        return [f for f in (False, True) if self.flags(flag, f)]

    def other_player_waits(self, t: str) -> bool:
        """Whether a kept waiting trigger is another player's."""
        player = self.info[t][2]
        return any(sum(self.by_flag[f].values()) - self.by_flag[f][player] > 0 for f in self.kept(t))

    def other_key_waits(self, t: str) -> bool:
        """Whether a kept waiting trigger is its player's with another answers' key (the player ordered the two)."""
        _, _, player, key = self.info[t]
        return any(sum(self.keys[player, f].values()) - self.keys[player, f][key] > 0
                   for f in self.kept(t) if (player, f) in self.keys)

    def first_seated_before(self, t: str) -> str | None:
        """The first kept waiting trigger (in the batch's order) of a player whose seat comes before ``t``'s."""
        seat = self.seats.get(self.info[t][2], 0)
        best = None
        for f in self.kept(t):
            for (other, flag), places in self.seated.items():
                if flag != f or other >= seat:
                    continue
                k = self.first.get((other, flag), 0)
                while k < len(places) and places[k] in self.gone:
                    k += 1
                self.first[other, flag] = k
                if k < len(places) and (best is None or places[k] < best):
                    best = places[k]
        return None if best is None else self.batch.members[best]

    def preferred_to(self, t: str) -> list[str]:
        """The kept waiting triggers of ``t``'s player that the player's answers put strictly before ``t``, in the
        batch's order."""
        _, _, player, key = self.info[t]
        places = []
        for f in self.kept(t):
            ranked = self.ranked.get((player, f), [])
            places.extend(n for _, n in ranked[:bisect_left(ranked, (key, -1))])
        return [self.batch.members[n] for n in sorted(places)]


def seat_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of triggers of different players."""
    return sum(1 for batch in replay(view).batches if _any_turn(_Walk(view, batch, keep), _Walk.other_player_waits))


def seat_breaches(view: TraceView, keep: PairFilter, seats: dict[str, int]) -> list[tuple[Batch, str, str]]:
    """The first kept pair (batch, earlier, later) of each batch whose later trigger's player sits before the earlier's
    (``seats``: player -> place, 0 first, an unknown player 0)."""
    found = []
    for batch in replay(view).batches:
        walk = _Walk(view, batch, keep, seats)
        for a in walk.turns():
            b = walk.first_seated_before(a)
            if b is not None:
                found.append((batch, a, b))
                break
    return found


def seat_problems(view: TraceView, keep: PairFilter, what: str, seats: dict[str, int] | None = None) -> list[str]:
    """Pairs of different players' triggers taken against ``seats`` (player -> place, 0 first; default
    :func:`seat_order`, turn order from the active player: a draft may give another order): the first such pair of
    each batch (:func:`seat_breaches`)."""
    found = []
    seats = seat_order(view) if seats is None else seats
    triggers = view.triggers
    for batch, a, b in seat_breaches(view, keep, seats):
        pa, pb = triggers[a]["controller"], triggers[b]["controller"]
        first = "the active player" if seats.get(pb) == 0 else f"{pb}, earlier in turn order from the active player"
        found.append(f"among {what} that became free together ({', '.join(batch.members)}), "
                     f"{view.describe_trigger(a)} of {pa} took its turn before {view.describe_trigger(b)} of "
                     f"{pb}{fate(view, b)}; {first} goes first (active player {view.active_player}, turn order "
                     f"{', '.join(view.players)})")
    return found


def own_order_occasions(view: TraceView, keep: PairFilter) -> int:
    """Batches holding a kept pair of one player's triggers that the player's answers order."""
    return sum(1 for batch in replay(view).batches if _any_turn(_Walk(view, batch, keep), _Walk.other_key_waits))


def own_order_breaches(view: TraceView, keep: PairFilter) -> list[tuple[str, str]]:
    """Every kept pair (earlier, later) of one player's triggers whose later one the player's answers put first."""
    found = []
    for batch in replay(view).batches:
        walk = _Walk(view, batch, keep)
        for a in walk.turns():
            found.extend((a, b) for b in walk.preferred_to(a))
    return found


def own_order_problems(view: TraceView, keep: PairFilter, what: str) -> list[str]:
    """Every kept pair of one player's triggers taken against the order the player chose (:func:`own_order_breaches`)."""
    return [f"{view.triggers[a]['controller']} chose to take {view.describe_trigger(b)} before "
            f"{view.describe_trigger(a)} among {what} that became free together, but {a} took its turn first"
            f"{fate(view, b)}" for a, b in own_order_breaches(view, keep)]


def _any_turn(walk: _Walk, question: Callable[[_Walk, str], bool]) -> bool:
    return any(question(walk, t) for t in walk.turns())
