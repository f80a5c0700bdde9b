"""The cost of issue 30's set pieces: CPU time of a run at 200 examples of the MTG stream, against today's stream
(the same builder with the issue 30 set pieces, reference_engine/mtg/generator/situated.py, switched off) measured in
the same run. A run here is :func:`conformance.running.runner.explore` of the run's stream on the reference engine, every
invariant of the default edition judging every trace, as ``trigger-conformance run`` explores. The two are timed
alternately, ``--repeat`` times, after one untimed round of each; the ratio (with the set pieces / without) is
printed with its min, median and max. Issue 30's goal: a ratio within 1.10.

Usage: python benchmarks/bench_situated_cost.py [--examples 200] [--repeat 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.running.runner import RunConfig, explore  # noqa: E402
from conformance.generation.stream import explorable_options  # noqa: E402
from reference_engine.kernel.registry import get_ruleset, reference_engine_for  # noqa: E402
from reference_engine.mtg.generator.situated import SituatedPieces  # noqa: E402

GOAL = 1.10


def run_seconds(examples: int, seed: int, situated: bool) -> float:
    """CPU seconds of exploring ``examples`` scenarios of the MTG run's stream, with or without the set pieces."""
    ruleset = get_ruleset("mtg")
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), max_examples=examples, seed=seed,
                       explored_options=explorable_options(ruleset, {}))
    original = SituatedPieces.situated_pieces
    if not situated:
        SituatedPieces.situated_pieces = lambda self, *args: None
    try:
        start = time.process_time()
        explore(reference_engine_for("mtg"), config, list(ruleset.invariants_for(ruleset.default_edition)))
        return time.process_time() - start
    finally:
        SituatedPieces.situated_pieces = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run_seconds(args.examples, args.seed, True), run_seconds(args.examples, args.seed, False)  # warm-up
    ratios, today, situated = [], [], []
    for _ in range(args.repeat):
        today.append(run_seconds(args.examples, args.seed, False))
        situated.append(run_seconds(args.examples, args.seed, True))
        ratios.append(situated[-1] / today[-1])
    print(f"MTG run at {args.examples} examples, seed {args.seed}, {args.repeat} rounds (CPU seconds)")
    for name, values in (("today's stream", today), ("with the issue 30 set pieces", situated)):
        print(f"  {name:30} min {min(values):.2f}  median {statistics.median(values):.2f}  max {max(values):.2f}")
    print(f"  ratio: min {min(ratios):.3f}  median {statistics.median(ratios):.3f}  max {max(ratios):.3f}  "
          f"(goal: at most {GOAL:.2f})")


if __name__ == "__main__":
    main()
