"""Small scenarios for enumeration: the ruleset's own builders, drawn toward their simplest answers.

Enumerating every trace is exponential in the pending work, so the editors' sweeps (``lint-rules``, ``diff``) need
scenarios a few triggers large. Rather than generate full-size scenarios and skip most of them, :class:`SmallSource`
answers each of a builder's questions skewed toward its lower bound (a builder's 0 is always the simplest answer:
fewer objects, abilities, actions and players, features off; ``reference_engine/kernel/source.py``). With skew ``k``
an answer in ``[lo, hi]`` is ``lo + floor(u**k * (hi - lo + 1))`` for ``u`` uniform in [0, 1): ``k = 1`` is
:class:`~reference_engine.kernel.source.SeededSource`'s distribution, larger ``k`` smaller scenarios. Every builder
still terminates and every feature can still be drawn (less often), so nothing a builder can make is ruled out.
``unskewed=n`` draws the first ``n`` answers at the builder's own odds: every builder draws its swarm features
first (one answer each), so the features come up as often as in a run while what is built from them stays small.
The answers are logged as SeededSource logs them, so a small scenario replays with
:class:`~reference_engine.kernel.source.ReplaySource`.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from reference_engine.kernel.registry import builder_for, loaded
from reference_engine.kernel.source import ChoiceSource

DEFAULT_SKEW = 3.0


class SmallSource(ChoiceSource):
    """Seeded answers skewed toward each range's lower bound by ``skew`` (>= 1; 1 is uniform). Raises ValueError
    for a skew below 1 or a range of more than 65,536 values."""

    def __init__(self, seed: int, skew: float = DEFAULT_SKEW, unskewed: int = 0):
        if skew < 1:
            raise ValueError(f"skew must be at least 1, not {skew}")
        self._uniform = random.Random(seed).random
        self.skew = skew
        self.unskewed = unskewed  # how many first answers are drawn at the builder's own odds (its feature draws)
        self._log = bytearray()

    @property
    def log(self) -> bytes:
        return bytes(self._log)

    def integer(self, lo: int, hi: int) -> int:
        size = hi - lo + 1
        if not 1 <= size <= 65536:
            raise ValueError(f"a choice range must hold 1 to 65536 values, not [{lo}, {hi}]")
        skew = self.skew if len(self._log) >= self.unskewed else 1.0
        offset = min(size - 1, int(self._uniform() ** skew * size))
        self._log += offset.to_bytes(1 if size <= 256 else 2, "big")
        return lo + offset


def small_scenarios(ruleset: str, edition: str, options: dict[str, Any], count: int, seed: int = 0,
                    skew: float = DEFAULT_SKEW, profile: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """``count`` small scenario documents of ``ruleset`` for ``edition`` (each carrying ``options``), from seeds
    ``seed * 1_000_003 + n``; with ``profile``, the builder's (e.g. ``{"include": [a search shape]}``). Raises
    KeyError for a ruleset without a builder."""
    # The card's tour of the zones (issue 30: a run's reach) makes scenarios larger, not simpler: left out here, in
    # the rulesets whose generator can leave it out.
    if "zone_tour" in loaded(ruleset).profile_features:
        profile = {**(profile or {}), "exclude": sorted({*(profile or {}).get("exclude", ()), "zone_tour"})}
    build = builder_for(ruleset, profile)
    for n in range(count):
        document = build(SmallSource(seed * 1_000_003 + n, skew), edition)
        yield {**document, "options": dict(options)}
