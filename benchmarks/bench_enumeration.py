"""How the enumeration of every legal trace grows with scenario size, for every ruleset (issue 14, item 1).

For each ruleset, a scenario with n abilities triggering on one signal, dealt alternately to two players, each
ability's effect signalling once more for two listeners, one of each player (so nesting grows with n too, and every
resolution opens an order of its own: pruning cuts a wrong first order before its subtrees are played). For each n:
the scenario size (objects, abilities, scripted actions), the plays (complete traces plus pruned prefixes), the
prefixes pruned, the complete traces judged, the legal ones, and the time over repeats (min / median / max), with
prefix pruning on and off. Speed is reported as a ratio against a baseline measured in the same run: the median
time of n=1 with pruning for that ruleset (``x base``), and for each n measured both ways, pruning's speed-up
(``off/on``).

    .venv/bin/python benchmarks/bench_enumeration.py [--ruleset R ...] [--max-n 4] [--repeats 3] [--max-n-unpruned 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from conformance.editors.enumeration import enumerate_traces
from conformance.shrinking.reduction import scenario_size
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset

RULESETS = ("momon-wonder", "mtg", "redemption")


def scenario(ruleset: str, n: int) -> dict:
    """n signal abilities on one event, alternating players, each setting off two listeners (one per player)."""
    objects = []
    for k in range(n):
        owner = "P1" if k % 2 == 0 else "P2"
        objects.append({"id": f"F{k}", "owner": owner, "zone": "field", "abilities": [
            {"id": f"A{k}", "trigger": {"event": "signal", "name": "go"},
             "effect": [{"do": "signal", "name": f"after{k}"}]}]})
        for m, listener in enumerate(("P2", "P1") if owner == "P1" else ("P1", "P2")):
            objects.append({"id": f"L{k}{m}", "owner": listener, "zone": "field", "abilities": [
                {"id": f"B{k}{m}", "trigger": {"event": "signal", "name": f"after{k}"}, "effect": []}]})
    return {"format": "trigger-conformance/scenario/1", "ruleset": ruleset,
            "edition": get_ruleset(ruleset).default_edition, "players": ["P1", "P2"], "active_player": "P1",
            "objects": objects,
            "script": [{"step": "one", "actions": [{"by": "P1", "effect": [{"do": "signal", "name": "go"}]}]}]}


def measure(prepared: dict, invariants, prune: bool, repeats: int):
    """``repeats`` timed walks after one untimed warm-up walk (imports and caches are not measured)."""
    enumerate_traces(prepared, invariants, player_choices="scenario", prune=prune, max_runs=200_000)
    times, walk = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        walk = enumerate_traces(prepared, invariants, player_choices="scenario", prune=prune, max_runs=200_000)
        times.append(time.perf_counter() - started)
    return walk, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", choices=RULESETS, help="default: every ruleset")
    parser.add_argument("--max-n", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-n-unpruned", type=int, default=3, help="without pruning the tree grows as n!^2; "
                        "larger n are measured with pruning only")
    args = parser.parse_args()
    print(f"{'ruleset':<13} {'n':>2} {'size':>4} {'prune':>5} {'plays':>7} {'pruned':>6} {'judged':>6} {'legal':>5} "
          f"{'min s':>7} {'median s':>8} {'max s':>7} {'x base':>7} {'off/on':>6}")
    for name in args.ruleset or RULESETS:
        ruleset = get_ruleset(name)
        base = None
        for n in range(1, args.max_n + 1):
            document = scenario(name, n)
            _, prepared = prepare_scenario(document, "bench")
            invariants = ruleset.invariants_for(prepared["edition"])
            medians = {}
            for prune in (True, False) if n <= args.max_n_unpruned else (True,):
                walk, times = measure(prepared, invariants, prune, args.repeats)
                medians[prune] = statistics.median(times)
                base = base or medians[True]
                speedup = f"{medians[False] / medians[True]:>6.1f}" if not prune else f"{'':>6}"
                print(f"{name:<13} {n:>2} {scenario_size(document):>4} {'on' if prune else 'off':>5} {walk.runs:>7} "
                      f"{walk.pruned:>6} {len(walk.leaves):>6} {len(walk.legal):>5} {min(times):>7.3f} "
                      f"{medians[prune]:>8.3f} {max(times):>7.3f} {medians[prune] / base:>7.1f} {speedup}")


if __name__ == "__main__":
    main()
