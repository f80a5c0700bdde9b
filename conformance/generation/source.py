"""Sources of choices for scenario builders.

A builder asks a source for bounded integers only. A 0 always means the simplest answer (fewer objects, no
nesting, the first option), so that shrinking toward 0 shrinks toward a simpler scenario.

* :class:`SeededSource` answers from :class:`random.Random` and records every answer: fast, for exploration.
* :class:`DrawSource` answers with Hypothesis draws of ``st.integers(lo, hi)``: one choice each, so the log of a
  :class:`SeededSource` is exactly a Hypothesis choice sequence for the same scenario, and Hypothesis can shrink it.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Callable, Sequence, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


class ChoiceSource:
    """What a builder may ask. Subclasses implement :meth:`integer`."""

    def integer(self, lo: int, hi: int) -> int:
        """A whole number in ``[lo, hi]``; ``lo`` is the simplest."""
        raise NotImplementedError

    def chance(self, percent: int) -> bool:
        """True with about ``percent`` % probability while exploring; False is the simpler answer."""
        return self.integer(0, 99) >= 100 - percent

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``; the first is the simplest."""
        return options[self.integer(0, len(options) - 1)]

    def count(self, lo: int, hi: int) -> int:
        """How many of something, between ``lo`` and ``hi``."""
        return self.integer(lo, hi)

    def permutation(self, items: Sequence[T]) -> list[T]:
        """A reordering of ``items``; all zeros keep the given order."""
        pool = list(items)
        return [pool.pop(self.integer(0, len(pool) - 1)) for _ in range(len(items))]


class SeededSource(ChoiceSource):
    """Answers from a seeded :class:`random.Random`; ``log`` holds every answer, a replayable choice sequence."""

    def __init__(self, seed: int):
        self._uniform = random.Random(seed).random
        self.log: list[int] = []

    def integer(self, lo: int, hi: int) -> int:
        # random() scaled is a few times faster than randint(), and uniform enough for ranges this small.
        value = lo + int(self._uniform() * (hi - lo + 1))
        self.log.append(value)
        return value


@lru_cache(maxsize=None)
def _integers(lo: int, hi: int):
    return st.integers(lo, hi)


class DrawSource(ChoiceSource):
    """Answers with Hypothesis draws, each ``st.integers(lo, hi)``: one choice in Hypothesis's choice sequence."""

    def __init__(self, draw: Callable):
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(_integers(lo, hi))


class ReplaySource(ChoiceSource):
    """Answers from a recorded log (values out of range are clamped, a short log is padded with the simplest answers)."""

    def __init__(self, log: Sequence[int]):
        self._log = list(log)
        self._next = 0

    def integer(self, lo: int, hi: int) -> int:
        value = self._log[self._next] if self._next < len(self._log) else lo
        self._next += 1
        return min(max(value, lo), hi)
