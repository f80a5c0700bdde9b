"""Checked scenarios per second of the reference engine over the process protocol, against in-process.

    python benchmarks/bench_protocol.py [--scenarios 400] [--rounds 5] [--ruleset momon-wonder]

Both paths do the same work per scenario (play it, validate the trace, run every invariant of the ruleset) on the
same scenarios, in the same run, alternating chunks of 50 scenarios so that noise from other processes on the machine
hits both alike; the ratio is the median of the per-chunk ratios. The goal for the process path is at least half the
in-process rate (ratio >= 0.5). Prints the rates and the ratio; exits 1 if the two paths disagree on a verdict.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from conformance.adapters.process import ProcessEngine  # noqa: E402
from conformance.checking import check_scenario  # noqa: E402
from conformance.generation.registry import builder_for  # noqa: E402
from conformance.generation.source import SeededSource  # noqa: E402
from reference_engine.rulesets import get_ruleset  # noqa: E402
from reference_engine.engines import reference_engine_for


CHUNK = 50


def verdict(check) -> tuple:
    return check.outcome.status, sorted(check.violations), check.outcome.trace


def timed(engine, scenarios, invariants) -> tuple[float, list]:
    started = time.perf_counter()
    verdicts = [verdict(check_scenario(engine, s, invariants)) for s in scenarios]
    return time.perf_counter() - started, verdicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="momon-wonder")
    parser.add_argument("--scenarios", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine-cmd", default=f"{sys.executable} -m reference_engine.serve",
                        help="the process engine to measure (default: the reference server)")
    args = parser.parse_args(argv)

    ruleset = get_ruleset(args.ruleset)
    edition = ruleset.default_edition
    invariants = ruleset.invariants_for(edition)
    options = ruleset.resolve_options(None)
    build = builder_for(ruleset.name)
    scenarios = [{**build(SeededSource(args.seed + n), edition), "options": options} for n in range(args.scenarios)]

    local = reference_engine_for(ruleset.name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    with ProcessEngine(args.engine_cmd, env=env, cwd=str(REPO)) as remote:
        print(f"engine: {remote.info.name} {remote.info.version} over protocol 1 ({remote.command})")
        timed(local, scenarios[:50], invariants)  # warm up both paths (imports, caches, the first configure)
        timed(remote, scenarios[:50], invariants)
        # Alternate in chunks, so that a burst of load from elsewhere on the machine hits both paths alike.
        chunks = [scenarios[k:k + CHUNK] for k in range(0, len(scenarios), CHUNK)]
        local_total = remote_total = 0.0
        ratios, local_verdicts, remote_verdicts = [], [], []
        for _ in range(args.rounds):
            for chunk in chunks:
                local_seconds, local_v = timed(local, chunk, invariants)
                remote_seconds, remote_v = timed(remote, chunk, invariants)
                local_total += local_seconds
                remote_total += remote_seconds
                ratios.append(local_seconds / remote_seconds)
                local_verdicts += local_v
                remote_verdicts += remote_v
        restarts = remote.restarts_used

    disagreements = sum(a != b for a, b in zip(local_verdicts, remote_verdicts))
    checked = len(scenarios) * args.rounds
    local_rate, remote_rate = checked / local_total, checked / remote_total
    ratio = statistics.median(ratios)
    print(f"{ruleset.name} {edition}: {len(scenarios)} scenarios x {len(invariants)} invariants, {args.rounds} rounds, "
          f"alternating chunks of {CHUNK}")
    print(f"  in-process        {local_rate:9.1f} checked scenarios/s")
    print(f"  process protocol  {remote_rate:9.1f} checked scenarios/s")
    print(f"  ratio             {ratio:9.2f}   (median over chunks; goal >= 0.5: {'met' if ratio >= 0.5 else 'NOT met'})")
    if disagreements or restarts:
        print(f"  {disagreements} verdicts differ, {restarts} restarts: the protocol path is broken", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
