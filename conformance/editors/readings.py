"""Open readings at the defaults (issue 28): scenarios aimed at every branch point, and options found open.

``lint-rules`` with no flags must report every branch point of a text that changes an outcome, so its sample cannot
be left to chance: a branch point such as Momon Wonder's ``sbc-defeat-order`` (two objects defeated by one State-Based
Conditions pass) comes up in one small generated scenario of a hundred. :func:`aimed_sample` draws many small
scenarios, plays each once with the permissive engine answering 0 everywhere (a fraction of a millisecond: no
enumeration), and keeps, beyond the usual sample, a few that meet each branch point the sample met too rarely.

A branch point an option names is open by the option's very existence only if its readings lead apart:
:func:`option_readings` enumerates a scenario that meets it under each documented value of the option and reports
it when the outcomes the invariants allow differ (each value's invariants accepting some outcome). Nothing here
compares with the reference engine's reading: each side is the set of outcomes its own invariants allow.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any, Iterable, Iterator

from conformance.editors.enumeration import Enumeration, enumerate_traces
from conformance.editors.small import small_scenarios
from conformance.shrinking.reduction import reduce_scenario
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.registry import builder_for, game_factory
from reference_engine.kernel.ruleset import Ruleset

PER_POINT = 3  # scenarios meeting each branch point that the sweep enumerates at least (when it can draw them)
DRAWS = 2000  # small scenarios screened by one play each for the branch points they meet


class _Log:
    """An oracle answering 0 everywhere (the reference engine's reading) that notes every branch point asked where
    its answer can matter (not one asked as bookkeeping: :func:`~reference_engine.kernel.branching.choose`)."""

    def __init__(self):
        self.met: set[str] = set()
        self._bookkeeping: str | None = None

    def bookkeeping(self, kind: str) -> None:
        self._bookkeeping = kind

    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        if kind != self._bookkeeping:
            self.met.add(kind)
        self._bookkeeping = None
        return 0


def met_points(document: dict[str, Any], max_entries: int = 2000) -> set[str]:
    """The branch points one play of the permissive engine meets on a scenario document (every answer 0, player
    choices from the scenario); none for a play that does not finish within ``max_entries`` trace entries."""
    _, scenario = prepare_scenario(copy.deepcopy(document), "a screened scenario")
    log = _Log()
    game = game_factory(scenario["ruleset"])(scenario, ScenarioChooser(scenario), log)
    game.record.max_entries = max_entries
    try:
        game.play()
    except RuntimeError:  # a loop: no finished play to enumerate
        return set()
    return log.met


def aimed_sample(ruleset: Ruleset, edition: str, options: dict[str, Any], scenarios: int, seed: int, skew: float,
                 draws: int = DRAWS, per_point: int = PER_POINT, met: dict[str, int] | None = None
                 ) -> Iterator[dict[str, Any]]:
    """The ``scenarios`` small generated scenarios of seed ``seed``, then, from ``draws`` more (seed ``seed + 1``;
    then, for branch points still short, ``draws`` more at half the skew, seed ``seed + 2``), each that meets a branch point of ``ruleset`` met fewer than ``per_point`` times so far: by the scenarios
    enumerated, when the caller keeps ``met`` (branch point -> enumerated scenarios meeting it) up to date between
    drawing (a scenario too large to enumerate then does not count), else by those drawn. Last, for each option
    whose readings differ only in a shape the stream never builds (the generator's ``option_shapes``: MTG's
    ``pass_two_membership`` and its watcher chain), ``per_point`` small scenarios of that shape meeting the option's
    branch point (seed ``seed + 3``), as ``diff`` draws them."""
    counts: Counter[str] | dict[str, int] = met if met is not None else Counter()
    for document in small_scenarios(ruleset.name, edition, options, scenarios, seed, skew):
        if met is None:
            counts.update(met_points(document))
        yield document
    wanted = set(ruleset.branch_points)
    # A branch point that small scenarios seldom reach is looked for again among larger ones (half the skew).
    rounds = [(seed + 1, skew)] + ([(seed + 2, max(1.0, skew / 2))] if skew > 1 else [])
    for round_seed, round_skew in rounds:
        for document in small_scenarios(ruleset.name, edition, options, draws, round_seed, round_skew):
            if all(counts.get(p, 0) >= per_point for p in wanted):
                break
            points = met_points(document)
            if any(counts.get(p, 0) < per_point for p in points & wanted):
                if met is None:
                    counts.update(points)
                yield document
    yield from _shaped(ruleset, edition, options, seed + 3, skew, draws // 10, per_point)


def _shaped(ruleset: Ruleset, edition: str, options: dict[str, Any], seed: int, skew: float, draws: int,
            per_point: int) -> Iterator[dict[str, Any]]:
    """Up to ``per_point`` small scenarios (of ``draws``) per option with search shapes, built with them, each
    meeting the option's branch point."""
    shapes = getattr(builder_for(ruleset.name), "option_shapes", {})
    for option, names in sorted(shapes.items()):
        points = {p.id for p in ruleset.branch_points.values() if getattr(p, "option", None) == option}
        found = 0
        for document in small_scenarios(ruleset.name, edition, options, draws, seed, skew, {"include": list(names)}):
            if found >= per_point:
                break
            if met_points(document) & points:
                found += 1
                yield document


def _legal_outcomes(document: dict[str, Any], option: str, value: Any, invariants: tuple[Invariant, ...],
                    max_runs: int) -> set[tuple[str, ...]] | None:
    """The observable outcomes the invariants allow on ``document`` with ``option`` set to ``value`` (None: the
    tree exceeds ``max_runs``)."""
    variant = {**copy.deepcopy(document), "options": {**document.get("options", {}), option: value}}
    _, scenario = prepare_scenario(variant, f"the scenario with {option}={value}")
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
    return set(walk.outcomes()) if walk.complete else None


def _apart(option: str, a: Any, b: Any, invariants: tuple[Invariant, ...], max_runs: int):
    def fails(document: dict[str, Any]) -> bool:
        left = _legal_outcomes(document, option, a, invariants, max_runs)
        right = _legal_outcomes(document, option, b, invariants, max_runs)
        return bool(left) and bool(right) and left != right
    return fails


def option_readings(ruleset: Ruleset, document: dict[str, Any], walk: Enumeration, invariants: tuple[Invariant, ...],
                    *, max_runs: int, done: Iterable[str] = (), reduce_seconds: float = 8.0,
                    agreed: set[str] | None = None) -> list:
    """:class:`~conformance.editors.analysis.Ambiguity` (with ``option`` set) for each option of ``ruleset`` not in
    ``done`` whose branch point ``walk`` (of ``document`` at its options) met and whose readings lead apart on it: the
    outcomes the invariants allow under the scenario's value and under another documented value differ, both
    non-empty. Each comes with a minimal scenario (``conformance.shrinking.reduction``) and one outcome of each side that
    the other does not allow. With ``agreed`` (a set of branch-point ids), a point whose readings were each allowed
    here and led to the same outcomes is added to it."""
    from conformance.editors.ambiguity import Ambiguity
    from conformance.editors.targeting import situation

    met = {d.kind for leaf in walk.leaves for d in leaf.rule_decisions}
    found = []
    same: set[str] = set()  # points whose readings tried here were each allowed and gave the same outcomes
    done = set(done)
    options = {o.name: o for o in ruleset.options}
    for point in ruleset.branch_points.values():
        if point.option is None or point.option in done or point.id not in met:
            continue
        current = walk.scenario["options"][point.option]
        here = set(walk.outcomes())
        for value in options[point.option].values:
            if value == current or not here:
                continue
            there = _legal_outcomes(document, point.option, value, invariants, max_runs)
            if there and there == here:
                same.add(point.id)
            if not there or there == here:
                continue
            small = reduce_scenario(document, _apart(point.option, current, value, invariants, max_runs), situation,
                                    reduce_seconds)
            left = _legal_outcomes(small, point.option, current, invariants, max_runs) or here
            right = _legal_outcomes(small, point.option, value, invariants, max_runs) or there
            _, prepared = prepare_scenario(copy.deepcopy(small), "the reduced scenario")
            traces = [sorted(left - right or left)[0], sorted(right - left or right)[0]]
            found.append(Ambiguity(prepared, point.id, f"{point.option}={current} or {point.option}={value}",
                                   traces, option=point.option, values=(current, value)))
            done.add(point.option)
            break
    if agreed is not None:  # not where another value leads apart
        agreed |= same - {a.kind for a in found}
    return found


__all__ = ["aimed_sample", "met_points", "option_readings"]
