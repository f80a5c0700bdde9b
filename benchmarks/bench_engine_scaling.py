"""Is each reference engine linear? Time per trigger at 10^3, 10^4 and 10^5 triggers, for three shapes of scenario.

    python benchmarks/bench_engine_scaling.py [--sizes 1000,10000,100000] [--repeat 3] [--ruleset R] [--shape S]

Shapes (every ruleset unless said):

* ``one-event``: N objects in play, split between two players, each with an ability that triggers on one signal; one
  scripted action sends that signal, so one event triggers N abilities (each player orders theirs, through the
  scenario chooser, then they resolve one by one).
* ``package`` (Momon Wonder only): one Effect-Based Summon of N monsters from hand, each with an ability that
  triggers when it itself is summoned: one Summon event, one package holding N triggers.
* ``chain``: N objects in play; object i's ability triggers on signal ``s<i>`` and sends signal ``s<i+1>``: a chain
  of N events, each triggering the next ability.

The time is that of ``engine.run`` alone (the trace is neither validated nor judged), divided by the number of
triggers; the trace-entry guard is raised to fit (``max_trace_entries``). For each shape and ruleset the benchmark
prints min/median/max of the per-trigger time over ``--repeat`` runs at each size, and the ratio of the medians at
the two largest sizes (10^5 / 10^4 by default): a linear engine stays near 1; a quadratic one is near 10.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_engine.kernel.choices import ScenarioChooser  # noqa: E402
from reference_engine.kernel.registry import reference_engine_classes  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402

PLAYERS = ["P1", "P2"]


def scenario(ruleset: str, objects: list[dict[str, Any]], effect: list[dict[str, Any]]) -> dict[str, Any]:
    rules = get_ruleset(ruleset)
    return {
        "format": "trigger-conformance/scenario/1", "ruleset": ruleset, "edition": rules.default_edition,
        "players": PLAYERS, "active_player": "P1", "objects": objects,
        "script": [{"step": "main", "actions": [{"by": "P1", "effect": effect}]}],
        "options": rules.resolve_options(None),
    }


def one_event(ruleset: str, n: int) -> dict[str, Any]:
    objects = [{"id": f"O{k}", "owner": PLAYERS[k % 2], "zone": "field",
                "abilities": [{"id": f"A{k}", "trigger": {"event": "signal", "name": "go"}, "effect": []}]}
               for k in range(n)]
    return scenario(ruleset, objects, [{"do": "signal", "name": "go"}])


def package(ruleset: str, n: int) -> dict[str, Any]:
    objects = [{"id": f"M{k}", "owner": "P1", "zone": "hand",
                "abilities": [{"id": f"A{k}", "trigger": {"event": "summon", "subject": "self"}, "effect": []}]}
               for k in range(n)]
    summon = {"do": "summon", "object": "M0", "also": [f"M{k}" for k in range(1, n)], "succeeds": True}
    return scenario(ruleset, objects, [summon])


def chain(ruleset: str, n: int) -> dict[str, Any]:
    objects = [{"id": f"O{k}", "owner": PLAYERS[k % 2], "zone": "field",
                "abilities": [{"id": f"A{k}", "trigger": {"event": "signal", "name": f"s{k}"},
                               "effect": [{"do": "signal", "name": f"s{k + 1}"}] if k + 1 < n else []}]}
               for k in range(n)]
    return scenario(ruleset, objects, [{"do": "signal", "name": "s0"}])


SHAPES: dict[str, tuple[Callable[[str, int], dict[str, Any]], tuple[str, ...]]] = {
    "one-event": (one_event, ("momon-wonder", "mtg", "redemption")),
    "package": (package, ("momon-wonder",)),
    "chain": (chain, ("momon-wonder", "mtg", "redemption")),
}


def per_trigger(engine, built: dict[str, Any], n: int) -> float:
    """Seconds per trigger of one play of ``built``; checks that it triggered ``n`` abilities."""
    chooser = ScenarioChooser(built)
    gc.collect()
    started = time.perf_counter()
    trace = engine.run(built, chooser)
    seconds = time.perf_counter() - started
    triggered = sum(1 for entry in trace["entries"] if entry["kind"] == "trigger")
    if triggered != n:
        raise SystemExit(f"expected {n} triggers, the engine recorded {triggered}")
    return seconds / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="numbers of triggers, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="only this shape (repeatable)")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    classes = reference_engine_classes()
    print(f"sizes (triggers): {', '.join(f'{n:,}' for n in sizes)}; {args.repeat} repeats each; "
          f"microseconds per trigger (min/median/max)")
    worst = 0.0
    for shape, (build, rulesets) in SHAPES.items():
        if args.shape and shape not in args.shape:
            continue
        for ruleset in rulesets:
            if args.ruleset and ruleset not in args.ruleset:
                continue
            medians = []
            cells = []
            for n in sizes:
                built = build(ruleset, n)
                # Generous: a trigger writes a handful of entries; the guard only stops runaway loops.
                engine = classes[ruleset](max_trace_entries=20 * n + 1000)
                times = [per_trigger(engine, built, n) * 1e6 for _ in range(args.repeat)]
                medians.append(statistics.median(times))
                cells.append(f"{n:>7,}: {min(times):6.1f}/{statistics.median(times):6.1f}/{max(times):6.1f}")
            ratio = medians[-1] / medians[-2] if len(medians) > 1 else float("nan")
            worst = max(worst, ratio)
            print(f"{shape:9} {ruleset:12} " + " | ".join(cells) +
                  (f" | ratio {sizes[-1]:,}/{sizes[-2]:,} = {ratio:4.2f}" if len(sizes) > 1 else ""))
    if len(sizes) > 1:
        print(f"largest ratio: {worst:.2f} (linear: about 1; quadratic: about {sizes[-1] / sizes[-2]:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
