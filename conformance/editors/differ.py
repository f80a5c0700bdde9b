"""Diffs: scenarios whose required traces (those satisfying every invariant) differ between two editions, two values
of an option, or a draft and the published rules, each with a minimal scenario (``conformance.shrinking.reduction``).

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
from conformance.shrinking.reduction import reduce_scenario, well_formed
from conformance.documents.scenarios import prepare_scenario
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
    (skipped: a side's tree exceeded ``max_runs``). Ctrl-C or SIGTERM (a KeyboardInterrupt) stops the sweep and
    returns what it found so far, ``sample.interrupted`` set: the caller reports it, then exits as interrupted."""
    found: list[Difference] = []
    seen: set = set()
    sample = sample if sample is not None else Sample()
    if documents is not None:
        sample.given = True
        documents = list(documents)
        source: Iterable = ((document, None) for document in documents)
    started = time.monotonic()
    if documents is None:
        source = ((s.document, s) for s in aimed(ruleset, a, b, draws=draws, seed=seed, skew=skew, sample=sample,
                                                 deadline=None if seconds is None else started + seconds))
    try:
        for n, (document, screened) in enumerate(source, 1):
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
                if n < len(documents) if documents is not None else sample.compared < scenarios:
                    sample.limited = limit  # scenarios were left unlooked at: the summary says so
                break
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the differences found so far are kept, the caller exits
        sample.interrupted = True
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


# -- Every scenario within a bound --------------------------------------------------------------------------------------

@dataclass
class Coverage:
    """What an exhaustive diff compared: the ``bound`` (``Bound.text()``), the walk's ``builds`` and ``distinct``
    scenarios (symmetry-reduced), ``visited`` of them (until a time limit), ``compared`` under both sides,
    ``not_situation`` (no editor's situation under a side), ``too_large`` (a side's tree exceeded ``max_runs``),
    ``differing`` (compared, with differing required traces), ``seconds``, and ``stopped`` (the time limit that
    stopped it, None when the bound was exhausted)."""

    bound: str
    builds: int = 0
    distinct: int = 0
    visited: int = 0
    compared: int = 0
    not_situation: int = 0
    too_large: int = 0
    differing: int = 0
    seconds: float = 0.0
    stopped: float | None = None

    @property
    def exhausted(self) -> bool:
        return self.stopped is None

    def within(self) -> str:
        """The words after "none found within": the bound, the scenarios compared, and whether it was exhausted."""
        state = "exhausted" if self.exhausted else \
            f"NOT exhausted: stopped by --time-limit after {self.visited} of {self.distinct}"
        return f"bound {self.bound} ({self.compared} scenarios, {state})"

    def line(self) -> str:
        """The statistics in one line, as ``lint-rules --exhaustive`` prints its own."""
        return (f"{self.builds} scenarios generated, {self.distinct} distinct after symmetry reduction; "
                f"{self.visited} visited: {self.compared} compared under both sides, every trace of each "
                f"({self.not_situation} not an editor's situation under a side, {self.too_large} too large for "
                f"--max-runs), {self.differing} with differing required traces, {self.seconds:.1f} s: "
                + ("exhausted" if self.exhausted else f"NOT exhausted (stopped by --time-limit {self.stopped:g} s)"))

    def as_json(self) -> dict[str, Any]:
        """The ``coverage`` of the editor report (``schemas/editor-report.schema.json``)."""
        bound = {k: int(v) for k, v in (part.split("=") for part in self.bound.split(","))}
        counts = {k: getattr(self, k) for k in ("builds", "distinct", "visited", "compared", "not_situation",
                                                "too_large", "differing")}
        return {"kind": "bound", "within": self.within(), "bound": bound, "scenarios": counts,
                "exhausted": self.exhausted, "seconds": round(self.seconds, 3),
                "stopped": None if self.exhausted else {"reason": "time-limit", "seconds": self.stopped,
                                                        "after": self.visited, "of": self.distinct}}


def diff_bounded(ruleset: Ruleset, a: Side, b: Side, bound, *, max_runs: int = 2000,
                 time_limit: float | None = None, limit: int = 1, reduce_seconds: float = 8.0
                 ) -> tuple[list[Difference], Coverage]:
    """Compare sides ``a`` and ``b`` on every scenario within ``bound`` (a
    :class:`~conformance.editors.bounded.Bound`; the builder of ``a``'s edition walked by
    :func:`~conformance.editors.bounded.bounded_scenarios`, symmetry-reduced). Returns (up to ``limit`` minimal
    differing scenarios, one per distinct difference, the :class:`Coverage`). A scenario that is no editor's
    situation under a side, or too large for ``max_runs`` under a side, is counted, not compared. Beyond ``limit``
    the differing scenarios are counted, not reduced. With ``time_limit`` (seconds) no scenario is started after it:
    the coverage then says how many of the distinct scenarios were visited. Raises KeyError for a ruleset without a
    builder."""
    from conformance.editors.bounded import Walk, bounded_scenarios

    started = time.monotonic()
    walk = Walk()
    documents = list(bounded_scenarios(ruleset.name, a.edition, bound, walk,
                                       None if time_limit is None else started + time_limit))
    coverage = Coverage(bound.text(), builds=walk.builds, distinct=walk.scenarios)
    found: list[Difference] = []
    seen: set = set()
    valid, differs = _valid_both(a, b), _differs(a, b, max_runs)
    if walk.stopped:  # the walk ran out of time: what it built is compared as far as time goes, and said so
        coverage.stopped = time_limit
    for document in documents:
        if time_limit is not None and time.monotonic() - started > time_limit:
            coverage.stopped = time_limit
            break
        coverage.visited += 1
        document = {**document, "options": {}}
        if not valid(document):
            coverage.not_situation += 1
            continue
        left, right = a.required(document, max_runs), b.required(document, max_runs)
        if left is None or right is None:
            coverage.too_large += 1
            continue
        coverage.compared += 1
        if left == right:
            continue
        coverage.differing += 1
        if len(found) >= limit:
            continue
        small = reduce_scenario(document, differs, valid, reduce_seconds)
        left, right = a.required(small, max_runs), b.required(small, max_runs)
        key = (frozenset(left - right), frozenset(right - left))
        if key not in seen:
            seen.add(key)
            found.append(Difference(small, (a.name, left), (b.name, right)))
    coverage.seconds = time.monotonic() - started
    return found, coverage
