"""The judge against the engine it judges: CPU time of judging a trace over CPU time of the reference engine playing
the scenario, per ruleset, in the same run (issue 26 item 2: the goal is a ratio of at most 1.0 on every ruleset).

For each ruleset the benchmark picks ``--examples`` scenarios of the exploration goal's size from the run's stream
(at least 20 events and 3 levels of nesting, as benchmarks/bench_throughput.py does), plays each once to get its
trace, then times, alternately and ``--repeat`` times, the reference engine playing all of them and the judge
(every invariant of the edition, with the trace's structure checks) judging all of them. Rates are CPU seconds of
this process (``time.process_time``), so other jobs on the machine change them less; min, median and max of the
ratio are printed. ``--profile`` prints the judge's 25 costliest functions (cProfile, own time) for each ruleset.
``--calls`` also prints the Python function calls per scenario of the judge and of the engine (counted by cProfile):
a measure of the work that other jobs on a shared machine do not move, for comparing two trees when the timings
swing more than the change.

Usage: python benchmarks/bench_judge.py [--ruleset R ...] [--examples 150] [--repeat 5] [--profile] [--calls]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_throughput import pick  # noqa: E402

from conformance.running.checking import check_trace, play  # noqa: E402
from conformance.generation.stream import explorable_options, stream_source  # noqa: E402
from conformance.running.runner import RunConfig, prepare_generated, scenario_builder  # noqa: E402
from reference_engine.kernel.registry import get_ruleset, reference_engine_for  # noqa: E402
from reference_engine.kernel.unit import units  # noqa: E402


def cases(name: str, examples: int) -> tuple[list, object, list]:
    """``(scenario, outcome)`` pairs of goal-size scenarios of ruleset ``name``, its reference engine and invariants."""
    ruleset = get_ruleset(name)
    config = RunConfig(ruleset, ruleset.default_edition, ruleset.resolve_options({}), seed=1,
                       explored_options=explorable_options(ruleset, {}))
    indexes, _, _ = pick(config, examples, True)
    engine = reference_engine_for(name)
    build = scenario_builder(config, engine)
    played = []
    for n in indexes:
        scenario = prepare_generated(config, build(stream_source(config.seed, n), config.edition))
        played.append((scenario, play(engine, scenario)))
    return played, engine, ruleset.invariants_for(config.edition)


def timed(function) -> float:
    started = time.process_time()
    function()
    return time.process_time() - started


def calls(function) -> int:
    """Python function calls (primitive and recursive) made by ``function()``, as cProfile counts them."""
    profiler = cProfile.Profile()
    profiler.runcall(function)
    return pstats.Stats(profiler).total_calls


def measure(name: str, examples: int, repeat: int, profile: bool,
            count: bool = False) -> tuple[list[float], float, float, tuple[float, float] | None]:
    """Ratios judge/engine of each repeat, the median CPU ms per scenario of the engine and of the judge, and (with
    ``count``) the function calls per scenario of the engine and of the judge."""
    played, engine, invariants = cases(name, examples)

    def playing() -> None:
        for scenario, _ in played:
            play(engine, scenario)

    def judging() -> None:
        for scenario, outcome in played:
            check_trace(scenario, outcome.trace, invariants, outcome)

    playing(), judging()  # warm-up: imports, caches
    engine_s, judge_s = [], []
    for _ in range(repeat):
        engine_s.append(timed(playing))
        judge_s.append(timed(judging))
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(judging)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    per = 1000 / max(1, len(played))
    counted = (calls(playing) / max(1, len(played)), calls(judging) / max(1, len(played))) if count else None
    return ([j / e for j, e in zip(judge_s, engine_s)], statistics.median(engine_s) * per,
            statistics.median(judge_s) * per, counted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset (repeatable; default: every installed one)")
    parser.add_argument("--examples", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--calls", action="store_true", help="also count function calls per scenario (cProfile)")
    args = parser.parse_args()
    print(f"judge / engine, CPU time, {args.examples} goal-size scenarios, {args.repeat} repeats (goal <= 1.0)")
    for name in args.ruleset or sorted(units()):
        ratios, engine_ms, judge_ms, counted = measure(name, args.examples, args.repeat, args.profile, args.calls)
        print(f"{name:14} ratio min {min(ratios):.2f} median {statistics.median(ratios):.2f} max {max(ratios):.2f}"
              f" | CPU ms per scenario: engine {engine_ms:.2f}, judge {judge_ms:.2f}")
        if counted is not None:
            print(f"{'':14} function calls per scenario: engine {counted[0]:.0f}, judge {counted[1]:.0f} "
                  f"(ratio {counted[1] / counted[0]:.2f})")


if __name__ == "__main__":
    main()
