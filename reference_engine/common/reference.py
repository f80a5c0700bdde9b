"""What every bundled reference engine shares: it names itself ``reference``, plays each scenario with its ruleset's
``Game``, and never modifies the scenario it is given."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.engine import Chooser, Engine, EngineInfo
from reference_engine.common.recorder import DEFAULT_MAX_ENTRIES


class ReferenceEngine(Engine):
    """A reference engine: a subclass sets ``ruleset``, ``editions`` and ``game_class`` (the class that plays one
    scenario, ``Game(scenario, chooser).play() -> trace``). Faulty engines (reference_engine/<ruleset>/engines/faulty.py) swap in a
    subclass of that Game.

    ``max_trace_entries`` (a positive int, default 20,000) is the guard against scenarios that never end: a play
    that would write more trace entries than that raises RuntimeError (the harness reports the engine as erroring on
    that scenario). Raise it for deliberately huge scenarios (benchmarks/bench_engine_scaling.py); the CLI's
    ``--max-trace-entries`` sets it. Raises ValueError if it is not a positive int.
    """

    ruleset: str = ""
    editions: tuple[str, ...] = ()
    game_class: type = None
    modifies_scenarios = False  # it only reads the scenario (tests/test_project.py checks it)
    # conformance.running.checking.trusts reads this from each class's own namespace: a reference engine sets it, a subclass
    # (a faulty engine of reference_engine/<ruleset>/engines/faulty.py) does not inherit the trust.
    trusted_traces = False

    def __init__(self, max_trace_entries: int = DEFAULT_MAX_ENTRIES):
        if isinstance(max_trace_entries, bool) or not isinstance(max_trace_entries, int) or max_trace_entries < 1:
            raise ValueError(f"max_trace_entries must be a positive integer, not {max_trace_entries!r}")
        self.max_trace_entries = max_trace_entries

    @property
    def info(self) -> EngineInfo:
        from reference_engine import __version__

        return EngineInfo(name="reference", version=__version__, rulesets={self.ruleset: list(self.editions)})

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        game = self.game_class(scenario, chooser)
        game.record.max_entries = self.max_trace_entries
        return game.play()
