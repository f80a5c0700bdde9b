"""The stream of a run: scenario n of a run is a function of the run seed, a stream key and n alone, so every
worker and every machine builds the same scenarios (:func:`stream_source`), and a rule's own seed is a stable function
of the run seed and its key (:func:`rule_seed`). The options a run explores are those the user did not pin
(:func:`explorable_options`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from reference_engine.kernel.ruleset import Ruleset
from reference_engine.kernel.source import SeededSource


def rule_seed(run_seed: int, key: str) -> int:
    """The exploration seed of one rule: a stable function of the run seed and the rule key."""
    return int.from_bytes(hashlib.sha256(f"{run_seed}:{key}".encode()).digest()[:8], "big")


def stream_source(run_seed: int, n: int, key: str = "scenarios") -> SeededSource:
    """The seeded source of scenario ``n`` of stream ``key`` of a run: a function of the run seed, the key and n.
    Hypothesis's own integer generation is not used for these seeds: it mixes in constants collected from whatever
    modules are loaded, which would make a verdict depend on the environment it runs in."""
    return SeededSource((rule_seed(run_seed, key) + n) % 2**64)


def explorable_options(ruleset: Ruleset, pinned: dict[str, Any]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The options of ``ruleset`` not ``pinned`` by the user, each with its values, default first (what
    :attr:`RunConfig.explored_options` takes)."""
    return tuple((option.name, (option.default, *(v for v in option.values if v != option.default)))
                 for option in ruleset.options if option.name not in pinned)
