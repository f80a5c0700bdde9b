"""The mutation self-check: does the suite catch engines that are wrong in known ways?

Each mutant in :data:`reference_engine.engines.mutants.MUTANTS` is the reference engine with one named fault. The self-check
runs the suite against each (the rule its author expects to catch it first, then every other rule of its ruleset
until one fails) with the same runner, budget and shrinking as ``trigger-conformance run``, and reports per mutant
whether it was caught, by which rule key, after how many examples, and the size of the shrunk counterexample.

Some mutants run through the process protocol (``python -m reference_engine.serve --mutant NAME`` behind a
:class:`~conformance.adapters.process.ProcessEngine`), so the self-check also proves that faults are still caught,
and shrunk, across the wire.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from conformance.adapters.base import Engine
from conformance.errors import ConformanceError
from conformance.runner import RunConfig, check_rule
from reference_engine.rulesets import get_ruleset
from reference_engine.engines import reference_engine_for


@dataclass
class MutantVerdict:
    """What the suite did with one mutant."""

    name: str
    ruleset: str
    edition: str
    fault: str
    expected_rule_key: str
    via: str  # "in-process" or "process"
    caught: bool = False
    rule_key: str | None = None  # the rule that caught it
    examples: int = 0  # scenarios the catching rule explored before its first failure (included)
    rules_tried: int = 0
    shrunk_size: int | None = None
    original_size: int | None = None
    determinism: str | None = None
    engine_problems: dict[str, int] = field(default_factory=dict)
    first_problem: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def server_command(mutant: str | None = None) -> list[str]:
    """The argv of the reference server (serving ``mutant`` if given), runnable from any working directory."""
    argv = [sys.executable, "-m", "reference_engine.serve"]
    return argv + ["--mutant", mutant] if mutant else argv


def server_environment() -> dict[str, str]:
    """The environment for :func:`server_command`: this checkout of ``reference_engine`` first on the path."""
    import reference_engine

    root = str(Path(reference_engine.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


def default_process_mutants(names: Iterable[str], count: int = 2) -> list[str]:
    """``count`` mutants to run through the process protocol: one per ruleset first, then in name order."""
    from reference_engine.engines.mutants import MUTANTS

    names = sorted(names)
    chosen: list[str] = []
    for name in names:  # spread over rulesets
        if len(chosen) < count and MUTANTS[name].ruleset not in {MUTANTS[c].ruleset for c in chosen}:
            chosen.append(name)
    for name in names:
        if len(chosen) < count and name not in chosen:
            chosen.append(name)
    return chosen


def check_mutant(name: str, max_examples: int = 100, seed: int = 0, via_process: bool = False,
                 timeout: float = 10.0) -> MutantVerdict:
    """Run the suite against mutant ``name`` until a rule catches it (or every rule passed)."""
    from conformance.adapters.process import ProcessEngine
    from reference_engine.engines.mutants import MUTANTS

    mutant = MUTANTS[name]
    ruleset = get_ruleset(mutant.ruleset)
    options = ruleset.resolve_options(dict(mutant.options))
    config = RunConfig(ruleset, mutant.edition, options, max_examples, seed, None, f"mutant:{name}")
    verdict = MutantVerdict(name, mutant.ruleset, mutant.edition, mutant.fault, mutant.expected_rule_key,
                            "process" if via_process else "in-process")
    invariants = sorted(ruleset.invariants_for(mutant.edition), key=lambda inv: inv.key != mutant.expected_rule_key)
    started = time.monotonic()
    engine: Engine = (ProcessEngine(server_command(name), env=server_environment(), timeout=timeout)
                      if via_process else mutant.factory())
    reference = reference_engine_for(ruleset.name)
    try:
        for inv in invariants:
            result = check_rule(engine, reference, config, inv)
            verdict.rules_tried += 1
            for status, n in result.engine_problems.items():
                verdict.engine_problems[status] = verdict.engine_problems.get(status, 0) + n
            verdict.first_problem = verdict.first_problem or result.first_problem
            if result.status == "failed" and result.failure is not None:
                verdict.caught = True
                verdict.rule_key = inv.key
                verdict.examples = result.scenarios_run
                verdict.shrunk_size = result.failure.shrunk_size
                verdict.original_size = result.failure.original_size
                verdict.determinism = result.failure.determinism
                break
    finally:
        engine.close()
        reference.close()
    verdict.seconds = round(time.monotonic() - started, 2)
    return verdict


def mutant_names(names: Iterable[str] | None = None, flag: str = "--mutant") -> list[str]:
    """``names`` checked against the bundled mutants (default: every one). Raises ConformanceError naming the unknown."""
    from reference_engine.engines.mutants import MUTANTS

    names = list(names) if names else sorted(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        raise ConformanceError(f"{flag}: no mutant {', '.join(map(repr, unknown))} "
                               f"(known: {', '.join(sorted(MUTANTS))})")
    return names


def selftest(names: Iterable[str] | None = None, max_examples: int = 100, seed: int = 0,
             process: Iterable[str] | int = 2,
             progress: Callable[[MutantVerdict], None] | None = None) -> list[MutantVerdict]:
    """Check every mutant in ``names`` (default: all). ``process``: the mutants to run through the process protocol,
    or how many to pick (see :func:`default_process_mutants`). Raises ConformanceError for an unknown name."""
    names = mutant_names(names)
    over_process = set(default_process_mutants(names, process) if isinstance(process, int) else process)
    verdicts = []
    for name in names:
        verdict = check_mutant(name, max_examples, seed, via_process=name in over_process)
        verdicts.append(verdict)
        if progress:
            progress(verdict)
    return verdicts


HEADER = f"{'mutant':34} {'via':10} {'caught':6} {'by rule key':30} {'examples':>8} {'shrunk size':>11} {'seconds':>7}"


def verdict_line(v: MutantVerdict) -> str:
    rule = v.rule_key or "-"
    if v.caught and v.rule_key != v.expected_rule_key:
        rule += f" (expected {v.expected_rule_key})"
    size = f"{v.shrunk_size} (from {v.original_size})" if v.shrunk_size is not None else "-"
    line = (f"{v.name:34} {v.via:10} {'yes' if v.caught else 'NO':6} {rule:30} "
            f"{v.examples if v.caught else '-':>8} {size:>11} {v.seconds:>7}")
    if v.engine_problems:
        line += "\n    engine problems: " + ", ".join(f"{k} x{n}" for k, n in sorted(v.engine_problems.items()))
        if v.first_problem:
            line += f"; first: {v.first_problem[:200]}"
    if v.caught and v.determinism and v.determinism != "deterministic":
        line += f"\n    the counterexample replayed {v.determinism}"
    if not v.caught:
        line += f"\n    not caught: {v.fault}"
    return line


def summary_line(verdicts: list[MutantVerdict]) -> str:
    caught = sum(v.caught for v in verdicts)
    via = sum(v.via == "process" for v in verdicts)
    return f"{caught} of {len(verdicts)} mutants caught ({via} through the process protocol)"
