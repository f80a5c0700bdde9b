"""Checked scenarios per second, against Hypothesis's own rate for ``st.integers()`` measured in the same run.

A checked scenario is the whole pipeline: generation, the engine (through its adapter) and every invariant of the
ruleset. The baseline is a Hypothesis test that draws one integer and does nothing with it, run with the same
settings; the ratio (ours / baseline) is what we track, so the machine's speed cancels out. Goal: at least 2 for
momon-wonder, which is only reachable because exploration does not pay Hypothesis's per-example cost once per
scenario: scenarios are built from seeds (conformance.runner), and Hypothesis is used where it earns its cost, to
shrink a failure and to keep failures in its example database.

Usage: python benchmarks/bench_throughput.py [--ruleset momon-wonder] [--examples 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st  # noqa: E402

from conformance.checking import check_scenario  # noqa: E402
from conformance.generation.registry import builder_for  # noqa: E402
from conformance.generation.source import SeededSource  # noqa: E402
from conformance.runner import RunConfig, prepare_generated, rule_seed  # noqa: E402
from reference_engine.rulesets import get_ruleset  # noqa: E402
from reference_engine.engines import reference_engine_for

SETTINGS = dict(database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))


def baseline_rate(examples: int) -> float:
    """Examples per second of a Hypothesis test drawing one ``st.integers()``."""
    count = 0

    @settings(max_examples=examples, **SETTINGS)
    @seed(1)
    @given(st.integers())
    def trivial(value: int) -> None:
        nonlocal count
        count += 1

    started = time.perf_counter()
    trivial()
    return count / (time.perf_counter() - started)


def pipeline_rate(ruleset_name: str, examples: int) -> float:
    """Checked scenarios per second, explored as the runner does (one seed per scenario)."""
    ruleset = get_ruleset(ruleset_name)
    edition = ruleset.default_edition
    config = RunConfig(ruleset, edition, ruleset.resolve_options({}))
    build = builder_for(ruleset_name)
    engine = reference_engine_for(ruleset.name)
    invariants = ruleset.invariants_for(edition)
    base = rule_seed(1, "benchmark")
    started = time.perf_counter()
    for n in range(examples):
        document = build(SeededSource(base + n), edition)
        result = check_scenario(engine, prepare_generated(config, document), invariants)
        assert not result.violations, result.violations
    return examples / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="momon-wonder")
    parser.add_argument("--examples", type=int, default=800, help="scenarios (and baseline examples) per repeat")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ratios = []
    for n in range(args.repeat):
        base = baseline_rate(args.examples)
        ours = pipeline_rate(args.ruleset, args.examples)
        ratios.append(ours / base)
        print(f"repeat {n + 1}: st.integers() {base:8.0f} examples/s | {args.ruleset} {ours:8.0f} checked "
              f"scenarios/s | ratio {ours / base:5.2f}")
    print(f"median ratio {statistics.median(ratios):.2f} (goal >= 2)")


if __name__ == "__main__":
    main()
