"""The cost of issue 30 item 2's zone tours (reference_engine/common/zone_tour.py, and MTG's around it in
reference_engine/mtg/generator/tour.py): CPU time of exploring a run's stream at 200 examples, against the same
builders with the tour switched off (its chance 0: every other answer as drawn), measured in the same run, per
ruleset; and of the whole ``trigger-conformance run`` (start-up and fixtures included), the goal's measure. The two
are timed alternately, ``--repeat`` times, after one untimed round of each; each ratio (with the tour / without) is
printed with its min, median and max. Issue 30's goal: a run within 1.10.

Usage: python benchmarks/bench_tour_cost.py [--examples 200] [--repeat 5] [--seed 0] [--ruleset mtg ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.commands import cli  # noqa: E402
from conformance.generation.stream import explorable_options  # noqa: E402
from conformance.running.runner import RunConfig, explore  # noqa: E402
from reference_engine.kernel.registry import get_ruleset, reference_engine_for  # noqa: E402
from reference_engine.momon_wonder import generator as momon_wonder  # noqa: E402
from reference_engine.mtg.generator import tour as mtg  # noqa: E402
from reference_engine.redemption import generator as redemption  # noqa: E402

GOAL = 1.10
TOURS = {"mtg": mtg, "momon-wonder": momon_wonder, "redemption": redemption}  # the module holding TOUR_CHANCE


@contextlib.contextmanager
def tour(name: str, on: bool):
    module = TOURS[name]
    chance = module.TOUR_CHANCE
    module.TOUR_CHANCE = chance if on else 0
    try:
        yield
    finally:
        module.TOUR_CHANCE = chance


def explore_seconds(name: str, examples: int, seed: int, on: bool) -> float:
    """CPU seconds of exploring ``examples`` scenarios of the run's stream of ruleset ``name``, every invariant of
    the default edition judging every trace."""
    ruleset = get_ruleset(name)
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), max_examples=examples, seed=seed,
                       explored_options=explorable_options(ruleset, {}))
    with tour(name, on):
        start = time.process_time()
        explore(reference_engine_for(name), config, list(ruleset.invariants_for(ruleset.default_edition)))
        return time.process_time() - start


def run_seconds(name: str, examples: int, seed: int, on: bool) -> float:
    """CPU seconds of ``trigger-conformance run`` (fixtures included; start-up is not, the modules being loaded)."""
    with tour(name, on), contextlib.redirect_stdout(io.StringIO()):
        start = time.process_time()
        cli.main(["run", "--ruleset", name, "--max-examples", str(examples), "--seed", str(seed)])
        return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", nargs="*", default=sorted(TOURS))
    args = parser.parse_args()
    for name in args.ruleset:
        for what, measure in (("exploring", explore_seconds), ("the run", run_seconds)):
            measure(name, args.examples, args.seed, True), measure(name, args.examples, args.seed, False)  # warm-up
            ratios, without, with_ = [], [], []
            for _ in range(args.repeat):
                without.append(measure(name, args.examples, args.seed, False))
                with_.append(measure(name, args.examples, args.seed, True))
                ratios.append(with_[-1] / without[-1])
            print(f"{name}, {what}, {args.examples} examples, seed {args.seed}, {args.repeat} rounds (CPU seconds): "
                  f"without the tour median {statistics.median(without):.2f}, with it "
                  f"{statistics.median(with_):.2f}; ratio min {min(ratios):.3f} median {statistics.median(ratios):.3f} "
                  f"max {max(ratios):.3f} (goal for the run: at most {GOAL:.2f})")


if __name__ == "__main__":
    main()
