"""How the enumeration of every legal trace grows with scenario size (issue 14, item 1).

A Momon Wonder scenario with n triggers of one event, split between two players, each trigger's effect signalling
once more for a listener of the other player (so nesting grows too). For each n: the scenario size (objects,
abilities, scripted actions), the traces explored (complete plays plus pruned prefixes), the prefixes pruned, the
complete traces judged, the legal ones, and the time over repeats (min / median / max), with pruning on and off.

    .venv/bin/python benchmarks/bench_enumeration.py [--max-n 5] [--repeats 5] [--max-n-unpruned 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from conformance.editors.enumeration import enumerate_traces
from conformance.runner import scenario_size
from conformance.scenarios import prepare_scenario
from reference_engine.rulesets import get_ruleset


def scenario(n: int) -> dict:
    objects = []
    for k in range(n):
        owner = "P1" if k % 2 == 0 else "P2"
        objects.append({"id": f"F{k}", "owner": owner, "zone": "field", "abilities": [
            {"id": f"A{k}", "trigger": {"event": "signal", "name": "go"},
             "effect": [{"do": "signal", "name": f"after{k}"}]}]})
        objects.append({"id": f"L{k}", "owner": "P2" if owner == "P1" else "P1", "zone": "field", "abilities": [
            {"id": f"B{k}", "trigger": {"event": "signal", "name": f"after{k}"}, "effect": []}]})
    return {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
            "players": ["P1", "P2"], "active_player": "P1", "objects": objects,
            "script": [{"step": "one", "actions": [{"by": "P1", "effect": [{"do": "signal", "name": "go"}]}]}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-n", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-n-unpruned", type=int, default=3, help="without pruning the tree grows as n!^2; "
                        "larger n are measured with pruning only")
    args = parser.parse_args()
    ruleset = get_ruleset("momon-wonder")
    invariants = ruleset.invariants_for("1.0.0")
    print(f"{'n':>2} {'size':>4} {'prune':>5} {'explored':>8} {'pruned':>6} {'judged':>6} {'legal':>5} "
          f"{'min s':>7} {'median s':>8} {'max s':>7}")
    for n in range(1, args.max_n + 1):
        document = scenario(n)
        _, prepared = prepare_scenario(document, "bench")
        for prune in (True, False) if n <= args.max_n_unpruned else (True,):
            times, walk = [], None
            for _ in range(args.repeats):
                started = time.perf_counter()
                walk = enumerate_traces(prepared, invariants, player_choices="scenario", prune=prune,
                                        max_runs=200_000)
                times.append(time.perf_counter() - started)
            print(f"{n:>2} {scenario_size(document):>4} {'on' if prune else 'off':>5} {walk.runs:>8} "
                  f"{walk.pruned:>6} {len(walk.leaves):>6} {len(walk.legal):>5} {min(times):>7.3f} "
                  f"{statistics.median(times):>8.3f} {max(times):>7.3f}")


if __name__ == "__main__":
    main()
