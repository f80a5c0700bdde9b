"""Sources of choices for scenario builders.

A builder asks a source for bounded integers only. A 0 always means the simplest answer (fewer objects, no
nesting, the first option), so that shrinking toward 0 shrinks toward a simpler scenario.

Every answer is encoded in an answer log of bytes: one byte for a range of at most 256 values, two bytes
(big-endian) otherwise, each holding ``answer - lo``. Reading a log back takes each value modulo the range, and an
exhausted log answers ``lo``, so every byte string builds some scenario and a shorter or smaller one builds a
simpler scenario. That makes the log a single Hypothesis ``st.binary()`` choice, cheap to replay and to shrink
(:mod:`conformance.shrinking.shrinker`).

* :class:`SeededSource` answers from :class:`random.Random` and records the log: fast, for exploration.
* :class:`ReplaySource` answers from a log: for shrinking, replay files and the example database.
"""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


class ChoiceSource:
    """What a builder may ask. Subclasses implement :meth:`integer`."""

    def integer(self, lo: int, hi: int) -> int:
        """A whole number in ``[lo, hi]`` (at most 65,536 values); ``lo`` is the simplest."""
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


def _width(lo: int, hi: int) -> int:
    size = hi - lo + 1
    if not 1 <= size <= 65536:
        raise ValueError(f"a choice range must hold 1 to 65536 values, not [{lo}, {hi}]")
    return 1 if size <= 256 else 2


class SeededSource(ChoiceSource):
    """Answers from a seeded :class:`random.Random`; ``log`` (bytes) replays them through :class:`ReplaySource`."""

    def __init__(self, seed: int):
        self._uniform = random.Random(seed).random
        self._log = bytearray()

    @property
    def log(self) -> bytes:
        return bytes(self._log)

    def integer(self, lo: int, hi: int) -> int:
        # random() scaled is a few times faster than randint(), and uniform enough for ranges this small.
        offset = int(self._uniform() * (hi - lo + 1))
        if hi - lo < 256:
            self._log.append(offset)
        else:
            self._log += offset.to_bytes(_width(lo, hi), "big")
        return lo + offset

    # The two most asked questions, answered as ChoiceSource does through integer() (same draw, same log byte) with
    # one call less: a builder asks them about 150 times per scenario.

    def chance(self, percent: int) -> bool:
        offset = int(self._uniform() * 100)
        self._log.append(offset)
        return offset >= 100 - percent

    def pick(self, options: Sequence[T]) -> T:
        if len(options) > 256:
            return options[self.integer(0, len(options) - 1)]
        offset = int(self._uniform() * len(options))
        self._log.append(offset)
        return options[offset]


class ReplaySource(ChoiceSource):
    """Answers from an answer log (any bytes, or a list of 0-255 integers); ``consumed`` is how much was read."""

    def __init__(self, log: Sequence[int] | bytes):
        self._log = bytes(log)
        self.consumed = 0

    def integer(self, lo: int, hi: int) -> int:
        width = _width(lo, hi)
        chunk = self._log[self.consumed:self.consumed + width]
        self.consumed += width
        if len(chunk) < width:
            return lo
        return lo + int.from_bytes(chunk, "big") % (hi - lo + 1)
