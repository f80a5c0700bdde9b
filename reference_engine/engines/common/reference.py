"""What every bundled reference engine shares: it names itself ``reference``, plays each scenario with its ruleset's
``Game``, and never modifies the scenario it is given."""

from __future__ import annotations

from typing import Any

from conformance.adapters.base import Chooser, Engine, EngineInfo


class ReferenceEngine(Engine):
    """A reference engine: a subclass sets ``ruleset``, ``editions`` and ``game_class`` (the class that plays one
    scenario, ``Game(scenario, chooser).play() -> trace``). Faulty engines (reference_engine/engines/mutants) swap in a
    subclass of that Game."""

    ruleset: str = ""
    editions: tuple[str, ...] = ()
    game_class: type = None
    modifies_scenarios = False  # it only reads the scenario (tests/test_project.py checks it)
    # conformance.checking.trusts reads this from each class's own namespace: a reference engine sets it, a subclass
    # (a faulty engine of reference_engine/engines/mutants) does not inherit the trust.
    trusted_traces = False

    @property
    def info(self) -> EngineInfo:
        from conformance import __version__

        return EngineInfo(name="reference", version=__version__, rulesets={self.ruleset: list(self.editions)})

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        return self.game_class(scenario, chooser).play()
