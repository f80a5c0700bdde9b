"""Diffs: scenarios whose required traces (those satisfying every invariant) differ between two editions, two values
of an option, or a draft and the published rules, each with a minimal scenario (``conformance.reduction``).

Split from :mod:`conformance.editors.analysis` (which re-exports :class:`Side`, :class:`Difference` and
:func:`diff`); nothing here compares with a reference engine's reading: each side's required traces are its own
invariants' verdict.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from conformance.editors.enumeration import enumerate_traces
from conformance.editors.plain import _scenario_lines, _side_by_side
from conformance.editors.small import DEFAULT_SKEW
from conformance.editors.targeting import (Sample, aimed, change_between, reference_play, restores_only_missed,
                                          screen)
from conformance.reduction import reduce_scenario, well_formed
from conformance.scenarios import prepare_scenario
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.ruleset import Ruleset


# -- Diffs -----------------------------------------------------------------------------------------------------------

@dataclass
class Side:
    """One side of a diff: its edition, options (overrides) and invariants."""

    name: str
    edition: str
    options: dict[str, Any]
    invariants: tuple[Invariant, ...]

    def required(self, document: dict[str, Any], max_runs: int) -> set[tuple[str, ...]] | None:
        """The observable orders of every trace satisfying this side's invariants (None: tree too large)."""
        variant = {**copy.deepcopy(document), "edition": self.edition,
                   "options": {**document.get("options", {}), **self.options}}
        _, scenario = prepare_scenario(variant, f"the scenario under {self.name}")
        walk = enumerate_traces(scenario, self.invariants, player_choices="scenario", max_runs=max_runs)
        return set(walk.outcomes()) if walk.complete else None


@dataclass
class Difference:
    scenario: dict[str, Any]
    left: tuple[str, set]
    right: tuple[str, set]

    def render(self) -> str:
        (a, left), (b, right) = self.left, self.right
        lines = ["DIFFERENCE: the required traces differ", "minimal scenario:", _scenario_lines(self.scenario)]
        columns = [(f"{a}: {'required' if len(left) == 1 else f'one of {len(left)} allowed'}", sorted(left)[0]),
                   (f"{b}: {'required' if len(right) == 1 else f'one of {len(right)} allowed'}", sorted(right)[0])]
        only_left, only_right = sorted(left - right), sorted(right - left)
        if only_left and only_right:
            columns = [(f"{a} only", only_left[0]), (f"{b} only", only_right[0])]
        lines.append(_side_by_side(columns))
        return "\n".join(lines)


def _differs(a: Side, b: Side, max_runs: int) -> Callable[[dict], bool]:
    def fails(document: dict[str, Any]) -> bool:
        left, right = a.required(document, max_runs), b.required(document, max_runs)
        return left is not None and right is not None and left != right
    return fails


def diff(ruleset: Ruleset, a: Side, b: Side, *, scenarios: int = 60, seed: int = 0, max_runs: int = 300,
         documents: Iterable[dict] | None = None, reduce_seconds: float = 8.0, limit: int = 1,
         skew: float = DEFAULT_SKEW, counts: dict[str, int] | None = None, draws: int = 2000,
         sample: Sample | None = None, seconds: float | None = None) -> list[Difference]:
    """Up to ``limit`` minimal scenarios whose required traces differ between sides ``a`` and ``b``.

    Without ``documents``, up to ``draws`` small scenarios are drawn and screened by one reference play per side
    (:func:`conformance.editors.targeting.aimed`): only those the change touches are enumerated, those whose
    reference plays already differ first, at most ``scenarios`` of them, no new one after ``seconds`` (None: no time
    bound). ``sample`` (a
    :class:`~conformance.editors.targeting.Sample`), if given, receives what was drawn, touched, compared and
    reached; ``counts``, if given, receives ``compared`` (scenarios enumerated on both sides) and ``too_large``
    (skipped: a side's tree exceeded ``max_runs``)."""
    found: list[Difference] = []
    seen: set = set()
    sample = sample if sample is not None else Sample()
    if documents is not None:
        sample.given = True
        source: Iterable = ((document, None) for document in documents)
    started = time.monotonic()
    if documents is None:
        source = ((s.document, s) for s in aimed(ruleset, a, b, draws=draws, seed=seed, skew=skew, sample=sample,
                                                 deadline=None if seconds is None else started + seconds))
    for document, screened in source:
        if not sample.given and sample.compared >= scenarios:
            break
        if seconds is not None and time.monotonic() - started > seconds:
            sample.timed_out = seconds
            break
        left, right = a.required(document, max_runs), b.required(document, max_runs)
        if (left is None or right is None) and screened is not None and screened.decisive:
            # too large to enumerate, but its reference plays differ: shrink it by that cheap test first
            change = change_between(ruleset, a, b)
            document = reduce_scenario(document, lambda d: bool(getattr(screen(d, a, b, change), "decisive", False)),
                                       _valid_both(a, b), reduce_seconds / 2)
            screened = None
            left, right = a.required(document, max_runs), b.required(document, max_runs)
        if left is None or right is None:
            sample.too_large += 1
            continue
        sample.compared += 1
        sample.note_reached(ruleset, screened.left if screened is not None else reference_play(a, document))
        if left == right:
            continue
        small = reduce_scenario(document, _differs(a, b, max_runs), _valid_both(a, b), reduce_seconds)
        left, right = a.required(small, max_runs), b.required(small, max_runs)
        key = (frozenset(left - right), frozenset(right - left))
        if key in seen:
            continue
        seen.add(key)
        found.append(Difference(small, (a.name, left), (b.name, right)))
        if len(found) >= limit:
            break
    if counts is not None:
        counts.update(compared=sample.compared, too_large=sample.too_large)
    return found


def _valid_both(a: Side, b: Side) -> Callable[[dict], bool]:
    """Valid under both sides: well formed, and restoring no trigger that was not missed in either side's reference
    play (:func:`~conformance.editors.targeting.restores_only_missed`)."""
    def valid(document: dict[str, Any]) -> bool:
        if not all(well_formed({**document, "edition": s.edition, "options": {**document.get("options", {}),
                                                                              **s.options}}) for s in (a, b)):
            return False
        return all(restores_only_missed(reference_play(s, document)) for s in (a, b))
    return valid
