"""Bundled faulty engines: each is the reference engine with one named fault, for the mutation self-check.

A suite that passes on the reference engine proves little unless it also fails on engines that are wrong in known
ways. Each mutant names the rule key that must catch it; ``trigger-conformance selftest`` and the tests check that
it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reference_engine.kernel.engine import Engine, EngineInfo


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


def faulty_engine(name: str, reference: type[Engine], game: type, ruleset: str, editions: list[str]) -> type[Engine]:
    """The ``reference`` engine class playing with ``game`` (a subclass of its Game with one step changed)."""

    class Faulty(reference):
        __doc__ = game.__doc__
        game_class = game

        @property
        def info(self) -> EngineInfo:
            # The version of the reference engine it changes (as the served mutants say), not a bare "0".
            return EngineInfo(name=f"mutant:{name}", version=super().info.version, rulesets={ruleset: list(editions)})

    Faulty.__name__ = Faulty.__qualname__ = game.__name__.replace("Game", "Engine")
    return Faulty


def mutant(name: str, reference: type[Engine], game: type, expected_rule_key: str, ruleset: str,
           editions: list[str], edition: str | None = None, fault: str | None = None) -> Mutant:
    """A :class:`Mutant` whose fault is described by ``fault`` or, by default, by the Game subclass's docstring."""
    fault = fault or " ".join((game.__doc__ or "").split())
    return Mutant(name=name, ruleset=ruleset, edition=edition or editions[0],
                  factory=faulty_engine(name, reference, game, ruleset, editions),
                  expected_rule_key=expected_rule_key, fault=fault)
