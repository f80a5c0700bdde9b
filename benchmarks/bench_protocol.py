"""Checked scenarios per second of the reference engine over the process protocol, against in-process.

    python benchmarks/bench_protocol.py [--scenarios 400] [--rounds 5] [--ruleset momon-wonder] [--no-v1]

Every path does the same work per scenario (play it, validate the trace, run every invariant of the ruleset) on the
same scenarios, in the same run, alternating chunks of 50 scenarios so that noise from other processes on the machine
hits all alike: in-process; the reference server over protocol version 2 (player choices answered in the engine,
one message each way per scenario); and, unless ``--no-v1``, the same server speaking version 1 (every choice a round
trip), which is what a version 1 engine gets. The ratio of a path is its time against in-process per chunk; the
benchmark prints min/median/max over the chunks. The goal for the process path is at least half the in-process rate
(median ratio >= 0.5). Exits 1 if any two paths disagree on a verdict.
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
from conformance.running.checking import check_scenario  # noqa: E402
from reference_engine.kernel.registry import builder_for  # noqa: E402
from reference_engine.kernel.source import SeededSource  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402
from reference_engine.kernel.registry import reference_engine_for


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
    parser.add_argument("--no-v1", action="store_true", help="do not also measure the server speaking version 1")
    args = parser.parse_args(argv)

    ruleset = get_ruleset(args.ruleset)
    edition = ruleset.default_edition
    invariants = ruleset.invariants_for(edition)
    options = ruleset.resolve_options(None)
    build = builder_for(ruleset.name)
    scenarios = [{**build(SeededSource(args.seed + n), edition), "options": options} for n in range(args.scenarios)]

    local = reference_engine_for(ruleset.name)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    paths = {"process protocol": ProcessEngine(args.engine_cmd, env=env, cwd=str(REPO))}
    if not args.no_v1:
        paths["protocol v1 only"] = ProcessEngine(f"{args.engine_cmd} --protocol 1", env=env, cwd=str(REPO))
    try:
        for name, remote in paths.items():
            print(f"{name}: engine {remote.info.name} {remote.info.version} over protocol {remote.protocol} "
                  f"({remote.command})")
        timed(local, scenarios[:50], invariants)  # warm up every path (imports, caches, the first configure)
        for remote in paths.values():
            timed(remote, scenarios[:50], invariants)
        # Alternate in chunks, so that a burst of load from elsewhere on the machine hits every path alike.
        chunks = [scenarios[k:k + CHUNK] for k in range(0, len(scenarios), CHUNK)]
        local_total = 0.0
        totals = {name: 0.0 for name in paths}
        ratios: dict[str, list[float]] = {name: [] for name in paths}
        local_verdicts: list = []
        verdicts: dict[str, list] = {name: [] for name in paths}
        for _ in range(args.rounds):
            for chunk in chunks:
                local_seconds, local_v = timed(local, chunk, invariants)
                local_total += local_seconds
                local_verdicts += local_v
                for name, remote in paths.items():
                    seconds, found = timed(remote, chunk, invariants)
                    totals[name] += seconds
                    ratios[name].append(local_seconds / seconds)
                    verdicts[name] += found
        restarts = sum(remote.restarts_used for remote in paths.values())
    finally:
        for remote in paths.values():
            remote.close()

    checked = len(scenarios) * args.rounds
    print(f"{ruleset.name} {edition}: {len(scenarios)} scenarios x {len(invariants)} invariants, {args.rounds} rounds, "
          f"alternating chunks of {CHUNK} ({len(ratios['process protocol'])} chunks per path)")
    print(f"  {'in-process':18} {checked / local_total:9.1f} checked scenarios/s")
    broken = bool(restarts)
    for name in paths:
        found = ratios[name]
        disagreements = sum(a != b for a, b in zip(local_verdicts, verdicts[name]))
        broken |= bool(disagreements)
        print(f"  {name:18} {checked / totals[name]:9.1f} checked scenarios/s | ratio to in-process min "
              f"{min(found):.2f} median {statistics.median(found):.2f} max {max(found):.2f}"
              + (f" | {disagreements} verdicts differ" if disagreements else ""))
    ratio = statistics.median(ratios["process protocol"])
    print(f"  goal: median ratio >= 0.5 for the process protocol: {'met' if ratio >= 0.5 else 'NOT met'} ({ratio:.2f})")
    if broken:
        print(f"  {restarts} restarts, or verdicts that differ: the protocol path is broken", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
