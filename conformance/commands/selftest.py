"""The mutation self-check: does the suite catch engines that are wrong in known ways?

Each mutant in :data:`reference_engine.common.faulty.MUTANTS` is the reference engine with one named fault. The self-check
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

from reference_engine.kernel.engine import Engine
from conformance.running.audit import audit, mutant_config
from reference_engine.kernel.errors import ConformanceError
from conformance.running.concluding import check_rule
from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.registry import reference_engine_for


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
    audit: str = ""  # the divergence audit's status: passed, or unexplained-divergence (a gap in the judge)
    audit_where: str = ""  # where the first unexplained divergence's outcomes differ
    catch_rate: tuple[int, int] | None = None  # (seeds caught by the named rule key, seeds tried), with --seeds

    @property
    def ok(self) -> bool:
        """Caught by its named rule key, no unexplained divergence, and (when measured) caught on 95% of seeds."""
        rate_ok = self.catch_rate is None or self.catch_rate[0] * 20 >= self.catch_rate[1] * 19
        return self.caught and self.rule_key == self.expected_rule_key and self.audit != "unexplained-divergence" \
            and rate_ok

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def server_command(mutant: str | None = None) -> list[str]:
    """The argv of the reference server (serving ``mutant`` if given), runnable from any working directory: ``-P``
    keeps that directory off the import path, so a stray ``reference_engine.py`` there is not what runs."""
    argv = [sys.executable, "-P", "-m", "reference_engine.serve"]
    return argv + ["--mutant", mutant] if mutant else argv


def server_environment() -> dict[str, str]:
    """The environment for :func:`server_command`: this checkout of ``reference_engine`` first on the path."""
    import reference_engine

    root = str(Path(reference_engine.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}


def default_process_mutants(names: Iterable[str], count: int = 2) -> list[str]:
    """``count`` mutants to run through the process protocol: one per ruleset first, then in name order."""
    from reference_engine.kernel.registry import MUTANTS

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
                 timeout: float = 10.0, seeds: int = 0) -> MutantVerdict:
    """Run the suite against mutant ``name`` until a rule catches it (or every rule passed), then the divergence audit
    (:mod:`conformance.running.audit`) over ``max_examples`` scenarios; with ``seeds``, also its :func:`catch_rate` over
    seeds ``seed`` .. ``seed + seeds - 1``."""
    from conformance.adapters.process import ProcessEngine
    from reference_engine.kernel.registry import MUTANTS

    mutant = MUTANTS[name]
    ruleset = get_ruleset(mutant.ruleset)
    config = mutant_config(name, max_examples, seed)
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
        audited = audit(engine, reference, config)
        verdict.audit = audited.status
        if audited.divergence is not None:
            verdict.audit_where = audited.divergence.where
    finally:
        engine.close()
        reference.close()
    if seeds:
        rate = catch_rate(name, range(seed, seed + seeds), max_examples)
        verdict.catch_rate = (rate["caught"], rate["seeds"])
    verdict.seconds = round(time.monotonic() - started, 2)
    return verdict


def catch_rate(name: str, seeds: Iterable[int] = range(20), max_examples: int = 100) -> dict:
    """How reliably mutant ``name`` is caught by its named rule key: for each seed, the scenarios of the stream that
    ``run --seed SEED`` explores, judged by that key alone (without shrinking) up to its first violation.

    Returns ``{"mutant", "rule_key", "caught", "seeds", "examples": {seed: examples until caught, or None}}``; the
    self-check's goal is ``caught >= 19`` of 20 seeds within the default 100 examples.
    """
    import dataclasses

    from conformance.running.runner import explore
    from reference_engine.kernel.registry import MUTANTS

    mutant = MUTANTS[name]
    inv = get_ruleset(mutant.ruleset).invariant(mutant.expected_rule_key)
    engine = mutant.factory()
    config = mutant_config(name, max_examples)
    examples: dict[int, int | None] = {}
    try:
        for seed in seeds:  # the run's stream for this seed, judged by the one key, up to its first violation
            found = explore(engine, dataclasses.replace(config, seed=seed), [inv])[inv.key]
            examples[seed] = None if found.failure_index is None else found.failure_index + 1
    finally:
        engine.close()
    return {"mutant": name, "rule_key": inv.key, "caught": sum(v is not None for v in examples.values()),
            "seeds": len(examples), "examples": examples}


def mutant_names(names: Iterable[str] | None = None, flag: str = "--mutant") -> list[str]:
    """``names`` checked against the bundled mutants (default: every one). Raises ConformanceError naming the unknown."""
    from reference_engine.kernel.registry import MUTANTS

    names = list(names) if names else sorted(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        raise ConformanceError(f"{flag}: no mutant {', '.join(map(repr, unknown))} "
                               f"(known: {', '.join(sorted(MUTANTS))})")
    return names


def selftest(names: Iterable[str] | None = None, max_examples: int = 100, seed: int = 0,
             process: Iterable[str] | int = 2,
             progress: Callable[[MutantVerdict], None] | None = None, seeds: int = 0) -> list[MutantVerdict]:
    """Check every mutant in ``names`` (default: all). ``process``: the mutants to run through the process protocol,
    or how many to pick (see :func:`default_process_mutants`). Raises ConformanceError for an unknown name."""
    names = mutant_names(names)
    over_process = set(default_process_mutants(names, process) if isinstance(process, int) else process)
    verdicts = []
    for name in names:
        verdict = check_mutant(name, max_examples, seed, via_process=name in over_process, seeds=seeds)
        verdicts.append(verdict)
        if progress:
            progress(verdict)
    return verdicts


HEADER = (f"{'mutant':34} {'via':10} {'caught':6} {'by rule key':30} {'examples':>8} {'shrunk size':>11} "
          f"{'seeds':>6} {'audit':6} {'seconds':>7}")


def verdict_line(v: MutantVerdict) -> str:
    rule = v.rule_key or "-"
    if v.caught and v.rule_key != v.expected_rule_key:
        rule += f" (expected {v.expected_rule_key})"
    size = f"{v.shrunk_size} (from {v.original_size})" if v.shrunk_size is not None else "-"
    seeds = f"{v.catch_rate[0]}/{v.catch_rate[1]}" if v.catch_rate else "-"
    audited = {"passed": "ok", "unexplained-divergence": "GAP"}.get(v.audit, "-")
    line = (f"{v.name:34} {v.via:10} {'yes' if v.caught else 'NO':6} {rule:30} "
            f"{v.examples if v.caught else '-':>8} {size:>11} {seeds:>6} {audited:6} {v.seconds:>7}")
    if v.engine_problems:
        line += "\n    engine problems: " + ", ".join(f"{k} x{n}" for k, n in sorted(v.engine_problems.items()))
        if v.first_problem:
            line += f"; first: {v.first_problem[:200]}"
    if v.caught and v.determinism and v.determinism != "deterministic":
        line += f"\n    the counterexample replayed {v.determinism}"
    if not v.caught:
        line += f"\n    not caught: {v.fault}"
    if v.audit == "unexplained-divergence":
        line += (f"\n    unexplained divergence at {v.audit_where}: the judge misses what this mutant does wrong "
                 f"(python -c \"from conformance.running.audit import audit_mutant; print(*audit_mutant('{v.name}'))\")")
    if v.catch_rate and v.catch_rate[0] * 20 < v.catch_rate[1] * 19:
        line += f"\n    caught by {v.expected_rule_key} on only {v.catch_rate[0]} of {v.catch_rate[1]} seeds (goal: 95%)"
    return line


def summary_line(verdicts: list[MutantVerdict]) -> str:
    caught = sum(v.caught for v in verdicts)
    by_key = sum(v.caught and v.rule_key == v.expected_rule_key for v in verdicts)
    via = sum(v.via == "process" for v in verdicts)
    gaps = sum(v.audit == "unexplained-divergence" for v in verdicts)
    line = (f"{caught} of {len(verdicts)} mutants caught, {by_key} by their named rule key ({via} through the process "
            f"protocol); {gaps} with an unexplained divergence")
    rated = [v for v in verdicts if v.catch_rate]
    if rated:
        low = sum(v.catch_rate[0] * 20 < v.catch_rate[1] * 19 for v in rated)
        line += f"; {len(rated) - low} of {len(rated)} caught on at least 95% of seeds"
    return line
