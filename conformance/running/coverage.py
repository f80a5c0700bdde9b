"""How well a run's stream reaches the situations a ruleset can express (``trigger-conformance coverage``).

The scenarios are exactly those ``run`` explores with the same seed, options and engine profile; each is played on
the engine (the reference engine by default) and its trace read for every situation of the ruleset
(:mod:`reference_engine.kernel.situations`). The report gives each situation's share of scenarios against its goal,
the option values drawn, and the size of the scenarios: events and nesting (median and 90th percentile).
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from reference_engine.kernel.engine import Engine
from conformance.running.runner import RunConfig, explore
from reference_engine.kernel.situations import Situation, SizeGoals, nesting
from reference_engine.kernel.traceview import TraceView


@dataclass
class Coverage:
    """Counts over the ``played`` scenarios that gave a trace (of ``scenarios`` explored)."""

    scenarios: int = 0
    played: int = 0
    situations: dict[str, int] = field(default_factory=dict)
    events: list[int] = field(default_factory=list)
    nesting: list[int] = field(default_factory=list)
    options: dict[str, Counter] = field(default_factory=dict)
    problems: Counter = field(default_factory=Counter)

    def share(self, name: str) -> float:
        return self.situations.get(name, 0) / self.played if self.played else 0.0


def measure(engine: Engine, config: RunConfig, situations: tuple[Situation, ...]) -> Coverage:
    """Play the run's stream of ``config.max_examples`` scenarios and count the situations each trace shows."""
    found = Coverage(situations={s.name: 0 for s in situations})

    def observe(n, source, scenario: dict[str, Any], check) -> None:
        found.scenarios += 1
        for name, _ in config.explored_options:
            found.options.setdefault(name, Counter())[repr(scenario["options"][name])] += 1
        if check.outcome.status != "trace":
            found.problems[check.outcome.status] += 1
            return
        view = TraceView(scenario, check.outcome.trace, scenario["options"])
        if view.structure_problems():
            found.problems["garbage"] += 1
            return
        found.played += 1
        found.events.append(len(view.events))
        found.nesting.append(nesting(view))
        for situation in situations:
            if situation.occurs(view):
                found.situations[situation.name] += 1

    explore(engine, config, [], observe=observe)
    return found


def _percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0


def goals_met(coverage: Coverage, situations: tuple[Situation, ...], size: SizeGoals = SizeGoals()) -> list[str]:
    """The goals a coverage misses, in words (empty: every goal met): each situation's share, and the median size
    against ``size`` (the ruleset's ``size_goals``)."""
    missed = [f"{s.name}: {coverage.share(s.name):.1%} of scenarios (goal: {s.goal} {s.share:.0%})"
              for s in situations if not s.met(coverage.share(s.name))]
    if coverage.events and statistics.median(coverage.events) < size.events:
        missed.append(f"median events {statistics.median(coverage.events)} (goal: at least {size.events})")
    if coverage.nesting and statistics.median(coverage.nesting) < size.nesting:
        missed.append(f"median nesting {statistics.median(coverage.nesting)} (goal: at least {size.nesting})")
    return missed


def report_lines(coverage: Coverage, situations: tuple[Situation, ...], size: SizeGoals = SizeGoals()) -> list[str]:
    """The coverage table as printed by the CLI (``size``: the ruleset's ``size_goals``)."""
    lines = [f"{coverage.scenarios} scenarios explored, {coverage.played} played to a trace"
             + (f" ({', '.join(f'{n} {k}' for k, n in sorted(coverage.problems.items()))})" if coverage.problems else ""),
             "", f"{'situation':28} {'share':>7}  {'goal':>10}  description"]
    for s in situations:
        share = coverage.share(s.name)
        mark = "ok" if s.met(share) else "MISSED"
        lines.append(f"{s.name:28} {share:>7.1%}  {('>=' if s.goal == 'at-least' else '<=') + f'{s.share:.0%}':>10}  "
                     f"{mark:6} {s.description}")
    if coverage.events:
        lines += ["", f"events per scenario: median {statistics.median(coverage.events)}, 90th percentile "
                      f"{_percentile(coverage.events, 0.9)}, max {max(coverage.events)} (goal: median >= "
                      f"{size.events})",
                  f"nesting per scenario: median {statistics.median(coverage.nesting)}, 90th percentile "
                  f"{_percentile(coverage.nesting, 0.9)}, max {max(coverage.nesting)} (goal: median >= "
                  f"{size.nesting})"]
    for name, counts in sorted(coverage.options.items()):
        total = sum(counts.values())
        lines.append(f"option {name}: " + ", ".join(f"{value} {n / total:.0%}" for value, n in sorted(counts.items())))
    return lines


def derived_lines(coverage: Coverage, derived: list) -> list[str]:
    """The derived situations (reference_engine/kernel/derived.py) as printed by the CLI: how many were reached, then
    each one never reached with the reason: impossible under the schema (and why), or not built by the stream."""
    possible = [d.situation for d in derived if d.impossible is None]
    unreached = [s for s in possible if not coverage.situations.get(s.name)]
    lines = ["", f"derived situations: {len(possible) - len(unreached)} of {len(possible)} reached at least once "
                 f"({len(derived) - len(possible)} impossible under the schema)"]
    lines += [f"  never reached: {s.name}: not built ({s.description})" for s in unreached]
    lines += [f"  never reached: {d.situation.name}: impossible ({d.impossible})" for d in derived if d.impossible]
    return lines


def derived_missed(coverage: Coverage, derived: list) -> list[str]:
    """The possible derived situations a coverage never reached, in words (empty: every one reached)."""
    return [f"{d.situation.name}: never reached (goal: at least once)" for d in derived
            if d.impossible is None and not coverage.situations.get(d.situation.name)]


__all__ = ["Coverage", "derived_lines", "derived_missed", "goals_met", "measure", "report_lines"]
