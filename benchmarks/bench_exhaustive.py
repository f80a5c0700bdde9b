"""How the cost of ``lint-rules --exhaustive`` grows with each dimension of the bound (issue 29, item 5).

For each ruleset, starting from its default bound (conformance/editors/exhaustive.py, ``DEFAULT_BOUNDS``), one
dimension at a time is stepped through the values given (the others kept at the default); for each bound: the
builds (leaves of the builder's question tree walked), the distinct scenarios after symmetry reduction, the
scenarios judged, the traces explored, the total time over ``--repeats`` runs (min / median / max) and the judged
scenarios per second at the median. A bound whose first run takes longer than ``--budget`` seconds stops its
dimension's curve (larger values cost more). docs/exhaustive.md reads the largest bound each ruleset exhausts in
ten minutes off these curves.

    .venv/bin/python benchmarks/bench_exhaustive.py [--ruleset R ...] [--dimension depth ...] [--repeats 3]
        [--budget 120] [--values depth=1,2,3,4 ...] [--base depth=2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from conformance.editors.bounded import Bound
from conformance.editors.exhaustive import DEFAULT_BOUNDS, default_bound, exhaust
from reference_engine.kernel.registry import get_ruleset

RULESETS = ("momon-wonder", "mtg", "redemption")
DIMENSIONS = ("depth", "values", "players", "objects", "abilities", "actions")


def base_bound(ruleset: str, base: str | None) -> Bound:
    """The bound each curve starts from: the ruleset's default with ``--base``'s dimensions replaced."""
    return Bound.parse(default_bound(ruleset).text() + ("," + base if base else ""))


def steps(ruleset: str, dimension: str, given: dict[str, list[int]], base: str | None = None) -> list[int]:
    """The values of ``dimension`` measured for ``ruleset``: those given with ``--values``, else the base bound's
    value and the two on either side of it that a bound allows (``depth`` from 0, the others from 1)."""
    if dimension in given:
        return given[dimension]
    base = getattr(base_bound(ruleset, base), dimension)
    low = 0 if dimension == "depth" else 1
    return [v for v in range(base - 2, base + 3) if v >= low]


def timed(ruleset: str, bound: Bound, repeats: int) -> tuple[dict, list[float]]:
    """``repeats`` timed runs (no reduction of findings: the walk and the judging are what is measured)."""
    unit = get_ruleset(ruleset)
    edition = unit.default_edition
    invariants = unit.invariants_for(edition)
    times, stats = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        stats = exhaust(unit, edition, invariants, bound, reduce_seconds=0.5)[0]
        times.append(time.perf_counter() - started)
    return stats, times


def curve(ruleset: str, dimension: str, values: list[int], repeats: int, budget: float, base: str | None = None
          ) -> None:
    """Print one row per value of ``dimension`` (the rest of the base bound kept)."""
    print(f"\n{ruleset}: {dimension} (base bound {base_bound(ruleset, base).text()}; default {DEFAULT_BOUNDS[ruleset]})")
    print(f"  {dimension:>9} {'builds':>8} {'distinct':>8} {'judged':>7} {'traces':>7} "
          f"{'min s':>7} {'median s':>8} {'max s':>7} {'judged/s':>8}")
    for value in values:
        bound = Bound.parse(f"{base_bound(ruleset, base).text()},{dimension}={value}")
        stats, times = timed(ruleset, bound, 1)
        if times[0] <= budget and repeats > 1:
            stats, more = timed(ruleset, bound, repeats - 1)
            times += more
        median = statistics.median(times)
        judged = stats["scenarios"]["judged"]
        print(f"  {value:>9} {stats['walk']['builds']:>8} {stats['walk']['distinct']:>8} {judged:>7} "
              f"{stats['traces']:>7} {min(times):>7.2f} {median:>8.2f} {max(times):>7.2f} "
              f"{judged / median if median else 0:>8.1f}" + ("" if len(times) == repeats else "  (one run: over budget)"))
        if times[0] > budget:
            print(f"  (stopped: {times[0]:.0f} s is over the budget of {budget:g} s; larger values cost more)")
            return


def _values(texts: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for text in texts or ():
        name, _, raw = text.partition("=")
        if name not in DIMENSIONS:
            raise SystemExit(f"--values: {name!r} is not one of {', '.join(DIMENSIONS)}")
        out[name] = [int(v) for v in raw.split(",") if v]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", choices=RULESETS, help="default: every ruleset")
    parser.add_argument("--dimension", action="append", choices=DIMENSIONS, help="default: every dimension")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds one run may take before its dimension's curve stops (default 120)")
    parser.add_argument("--base", metavar="DIM=N,...", help="start every curve from the default bound with these "
                        "dimensions replaced (e.g. depth=2: a cheaper base for the other dimensions)")
    parser.add_argument("--values", action="append", metavar="DIM=V1,V2,...",
                        help="the values of one dimension to measure (default: the default's value and two on "
                             "either side)")
    args = parser.parse_args()
    given = _values(args.values)
    for ruleset in args.ruleset or RULESETS:
        for dimension in args.dimension or DIMENSIONS:
            curve(ruleset, dimension, steps(ruleset, dimension, given, args.base), args.repeats, args.budget,
                  args.base)


if __name__ == "__main__":
    main()
