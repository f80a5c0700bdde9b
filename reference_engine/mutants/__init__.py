"""Bundled faulty engines: each is the reference engine with one named fault, for the mutation self-check.

A suite that passes on the reference engine proves little unless it also fails on engines that are wrong in known
ways. Each mutant names the rule key that must catch it; ``trigger-conformance selftest`` and the tests check that
it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from conformance.adapters.base import Engine


@dataclass(frozen=True)
class Mutant:
    """A faulty engine: ``factory()`` builds it; ``expected_rule_key`` is the rule that must catch its fault."""

    name: str
    ruleset: str
    edition: str
    factory: Callable[[], Engine]
    expected_rule_key: str
    fault: str
    options: tuple[tuple[str, object], ...] = ()  # run options under which the fault shows


def _mutants() -> dict[str, Mutant]:
    from reference_engine.mutants import momon_wonder
    from reference_engine.mutants import redemption
    from reference_engine.mutants import mtg

    found: list[Mutant] = [*momon_wonder.MUTANTS]
    found += redemption.MUTANTS
    found += mtg.MUTANTS
    return {m.name: m for m in found}


MUTANTS: dict[str, Mutant] = _mutants()
