"""Scenarios aimed at what a change touches: the candidates a ``diff`` enumerates first.

Enumerating every trace of a scenario under both sides of a diff is the expensive part; drawing a small scenario
from a ruleset's builder and playing it once is cheap. So :func:`aimed` draws many candidates (the builder skewed
toward small answers, :mod:`conformance.editors.small`, on a ladder of skews so that the features a reading needs,
rarely all on at a high skew, come up too), plays each once per side with the permissive engine answering 0
everywhere (each side's reference reading), and sorts them:

* **decisive**: the two sides' reference plays differ in what a player sees, or (when only rule keys change) one
  side's reference play breaks the other side's invariants (a draft key rejects the published reading, or the
  published keys reject the draft's).
  Such a scenario almost always differs in its required traces too; these are enumerated first, smallest first.
* **touched**: the change can decide something here without deciding it in the reference play: a branch point
  standing for a changed option was met (``reading:<option>``, or the general branch the permissive engine names
  for it in ``option_branches``, such as Momon Wonder's ``remedy-placement`` for ``sanctioned_play``), or a changed
  rule key was exercised. Enumerated after the decisive ones, smallest first.
* anything else cannot show the change (no branch point of it is met, no changed key has an occasion) and is never
  enumerated.

The candidates come from the ruleset's own builder, asked for the search shapes its generator names for the changed
options (:func:`search_builder`), shapes no run's stream holds where a reading differs.

Nothing here knows a rule: which branch kinds stand for an option is the permissive engine's to say, which shapes
the generator's, and which traces are legal the invariants'.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from conformance.editors.enumeration import judge, signature
from conformance.editors.small import DEFAULT_SKEW, SmallSource
from conformance.shrinking.reduction import scenario_size, well_formed
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import builder_for, game_factory
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.kernel.traceview import TraceView

ROUND = 40  # candidates drawn and screened before the decisive ones among them are enumerated


class _Noting:
    """An oracle answering 0 everywhere (the reference engine's reading), noting every branch kind met."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()

    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        self.kinds.add(kind)
        return 0


@dataclass
class Play:
    """One side's reference play of a candidate: the prepared scenario, its trace (None: the play never ended) and the
    branch kinds it met."""

    scenario: dict[str, Any]
    trace: dict[str, Any] | None
    kinds: set[str]

    @property
    def outcome(self) -> tuple[str, ...] | None:
        return None if self.trace is None else signature(self.trace, observable=True)


def reference_play(side, document: dict[str, Any], max_entries: int = 2_000) -> Play:
    """``document`` played once under ``side`` (its edition and options) by the permissive engine answering 0 at
    every branch point. Raises ConformanceError for a document that is not a valid scenario under the side."""
    variant = {**copy.deepcopy(document), "edition": side.edition,
               "options": {**document.get("options", {}), **side.options}}
    _, scenario = prepare_scenario(variant, f"the scenario under {side.name}")
    oracle = _Noting()
    game = game_factory(scenario["ruleset"])(scenario, ScenarioChooser(scenario), oracle)
    game.record.max_entries = max_entries
    try:
        trace = game.play()
    except RuntimeError:  # it never ends on this reading (a loop): no trace
        trace = None
    return Play(scenario, trace, oracle.kinds)


@dataclass(frozen=True)
class Change:
    """What differs between two sides: option names, whether the edition does, and rule keys (added, dropped or
    replaced), with the branch kinds that stand for the changed options."""

    options: frozenset[str]
    edition: bool
    keys: frozenset[str]
    kinds: frozenset[str]

    def describe(self) -> str:
        parts = [f"option {o}" for o in sorted(self.options)] + (["the edition"] if self.edition else [])
        parts += [f"key {k}" for k in sorted(self.keys)]
        return ", ".join(parts) or "nothing"


def change_between(ruleset: Ruleset, a, b) -> Change:
    """The :class:`Change` from side ``a`` to side ``b``."""
    options = {name for name in set(a.options) | set(b.options)
               if ruleset.resolve_options(a.options).get(name) != ruleset.resolve_options(b.options).get(name)}
    left = {inv.key: inv for inv in a.invariants}
    right = {inv.key: inv for inv in b.invariants}
    keys = {k for k in set(left) | set(right) if left.get(k) is not right.get(k)}
    general = getattr(game_factory(ruleset.name), "option_branches", {})
    kinds = {f"reading:{name}" for name in options} | {k for name in options for k in general.get(name, ())}
    return Change(frozenset(options), a.edition != b.edition, frozenset(keys), frozenset(kinds))


@dataclass
class Screened:
    """A candidate and what one reference play per side says of it."""

    document: dict[str, Any]
    left: Play
    right: Play
    decisive: bool
    touched: bool
    size: int


def restores_only_missed(play: Play) -> bool:
    """Whether every trigger the play restores (a Missed Trigger Remedy: a ``trigger`` entry with ``remedy`` true) was
    missed: no instance of that ability had triggered from an event before it was restored. Restoring one that did
    trigger restores nothing that was missed: no editor's situation, so a diff never shows it."""
    if play.trace is None:
        return True
    triggered: set[tuple[str, str]] = set()
    for entry in play.trace["entries"]:
        if entry["kind"] != "trigger":
            continue
        ability = (entry.get("source"), entry.get("ability"))
        if entry.get("remedy"):
            if ability in triggered:
                return False
        elif entry.get("event") is not None:
            triggered.add(ability)
    return True


@dataclass(frozen=True)
class _AsWritten:
    """A scenario's own edition and options, as a side for :func:`reference_play`."""

    edition: str
    options: dict = field(default_factory=dict)
    name: str = "the scenario"


def situation(document: dict[str, Any]) -> bool:
    """Whether a scenario document is a situation worth reporting: well formed, and restoring no trigger that was
    never missed (one of an ability that already triggered, :func:`~conformance.editors.targeting.restores_only_missed`,
    in the reference play at the document's own options). A "restored" trigger of the very ability that just
    triggered is no editor's situation: every tool's sample and reduction keeps to situations (issue 28 item 4)."""
    if not well_formed(document):
        return False
    try:
        return restores_only_missed(reference_play(_AsWritten(document["edition"]), document))
    except Exception:  # noqa: BLE001 - a document the engine cannot prepare is no situation
        return False


def _violates(play: Play, scenario: dict[str, Any], invariants) -> bool:
    if play.trace is None:
        return False
    try:
        return bool(judge(scenario, play.trace, invariants))
    except Exception:  # noqa: BLE001 - a key that cannot read the other side's trace says nothing here
        return False


def _exercised(play: Play, invariants, keys: frozenset[str]) -> bool:
    if play.trace is None or not keys:
        return False
    view = TraceView(play.scenario, play.trace, play.scenario["options"])
    for inv in invariants:
        if inv.key in keys:
            try:
                if inv.exercised(view):
                    return True
            except Exception:  # noqa: BLE001 - an occasion counter that cannot read the trace counts none
                continue
    return False


def screen(document: dict[str, Any], a, b, change: Change) -> Screened | None:
    """One reference play per side of ``document``: is it decisive, touched, or neither (None when it is not a valid
    scenario under a side, or restores a trigger that was not missed: :func:`restores_only_missed`)."""
    from reference_engine.kernel.errors import ConformanceError

    try:
        left, right = reference_play(a, document), reference_play(b, document)
    except ConformanceError:
        return None
    if not (restores_only_missed(left) and restores_only_missed(right)):
        return None
    # One side's reference play breaking the other side's keys is decisive only when the keys alone change: where the
    # readings differ, a key may reject the other reading's bookkeeping (which queue) and still allow its outcome.
    rejected = change.keys and (
        (_violates(left, right.scenario, b.invariants) and not _violates(left, left.scenario, a.invariants))
        or (_violates(right, left.scenario, a.invariants) and not _violates(right, right.scenario, b.invariants)))
    decisive = left.outcome != right.outcome or bool(rejected and not change.options and not change.edition)
    touched = decisive or bool(rejected) or bool((left.kinds | right.kinds) & change.kinds) or _exercised(
        left, a.invariants, change.keys) or _exercised(right, b.invariants, change.keys)
    return Screened(document, left, right, decisive, touched, scenario_size(document))


@dataclass
class Sample:
    """What a diff looked at: ``drawn`` candidates from the generator (seeds ``seed * 1_000_003 + n``, the skews of
    ``skews`` in turn), ``touched`` of them the change can decide something in, ``decisive`` of those whose reference
    plays already differ; ``compared`` enumerated under both sides, ``too_large`` skipped (a side's tree exceeded
    the run bound); ``reached`` the ruleset's situations the compared scenarios' reference plays showed."""

    seed: int = 0
    skews: tuple[tuple[float, int], ...] = ()
    drawn: int = 0
    touched: int = 0
    decisive: int = 0
    compared: int = 0
    too_large: int = 0
    given: bool = False
    timed_out: float | None = None  # the time bound that stopped the sweep, if one did
    interrupted: bool = False  # Ctrl-C or SIGTERM stopped the sweep: what it found so far is kept
    limited: int | None = None  # the --limit that stopped the sweep (it found that many differences), if one did
    reached: set[str] = field(default_factory=set)

    def unreached(self, ruleset: Ruleset) -> list[str]:
        """The ruleset's situations (``Ruleset.situations``) no compared scenario reached."""
        return [s.name for s in ruleset.situations if s.name not in self.reached]

    def note_reached(self, ruleset: Ruleset, play: Play) -> None:
        if play.trace is None:
            return
        view = TraceView(play.scenario, play.trace, play.scenario["options"])
        for situation in ruleset.situations:
            if situation.name not in self.reached:
                try:
                    if situation.occurs(view):
                        self.reached.add(situation.name)
                except Exception:  # noqa: BLE001 - a situation that cannot read this trace did not occur
                    continue

    def stopped_by_limit(self) -> str:
        """Words saying that the ``--limit`` stopped the sweep ("" when it did not)."""
        if self.limited is None:
            return ""
        first = "the first difference" if self.limited == 1 else f"{self.limited} differences"
        return f"; stopped at {first} (--limit {self.limited}); --limit N shows more"

    def describe(self) -> str:
        """What the diff looked at, in words (and what stopped it early: the time bound, an interrupt, the limit)."""
        if self.given:
            return (f"{self.compared} of the given scenarios" if self.limited is not None else
                    f"the {self.compared} given scenario(s)") + ", every trace of each" + self.stopped_by_limit()
        return (f"{self.drawn} small scenarios drawn (seed {self.seed}, skews {'; '.join(_rung(r) for r in self.skews)}), "
                f"{self.touched} touched by the change ({self.decisive} with differing reference plays), "
                f"{self.compared} enumerated under both sides, every trace of each, {self.too_large} too large"
                + (f", stopped at the time bound of {self.timed_out:g} s" if self.timed_out is not None else "")
                + (", INTERRUPTED there (the scenarios after it were not compared)" if self.interrupted else "")
                + ": a sample, not every scenario" + self.stopped_by_limit())


FEATURE_DRAWS = 24  # every builder draws its swarm features first, one answer each (MTG has 23, the others fewer)


def skew_ladder(skew: float) -> tuple[tuple[float, int], ...]:
    """The rungs drawn in turn, each (skew, answers drawn first at the builder's own odds): ``skew``, halfway and a
    quarter of the way down to 1, then ``skew`` and halfway with the swarm features drawn as often as in a run
    (:class:`~conformance.editors.small.SmallSource`'s ``unskewed``), for the readings that need features a high
    skew rarely turns on together, and full size (skew 1) for those needing a whole set piece (a decisive full-size
    candidate too large to enumerate is first shrunk by its reference plays alone: ``analysis.diff``)."""
    skews = list(dict.fromkeys(round(1 + (skew - 1) * f, 3) for f in (1, 0.5, 0.25)))
    rungs = [(k, 0) for k in skews] + [(k, FEATURE_DRAWS) for k in skews[:2] if k > 1]
    return tuple(dict.fromkeys(rungs + [(1.0, 0)]))


def _rung(rung: tuple[float, int]) -> str:
    return ("1 (full size)" if rung[0] == 1 else f"{rung[0]:g}") + (" with features at the builder's odds" if rung[1] else "")


def search_builder(ruleset: str, change: Change):
    """The builder the search draws candidates from: the ruleset's own, asked for the search shapes its generator
    names for the changed options (``option_shapes`` on the generator: option -> shapes, built only when a profile
    includes them, so a run's stream never holds them), for a reading that differs only in a shape the stream
    rarely or never builds (MTG's ``pass_two_membership``: a watcher of an ability being put on the stack, watched in
    turn). Which shape stands for which option is the generator's to say."""
    build = builder_for(ruleset)
    shapes = sorted({s for option in change.options for s in getattr(build, "option_shapes", {}).get(option, ())})
    return builder_for(ruleset, {"include": shapes}) if shapes else build


def aimed(ruleset: Ruleset, a, b, *, draws: int, seed: int = 0, skew: float = DEFAULT_SKEW,
          sample: Sample | None = None, deadline: float | None = None) -> Iterator[Screened]:
    """Candidates worth enumerating for the diff of ``a`` and ``b``, in order: each round of :data:`ROUND` drawn
    candidates yields its decisive ones (smallest first); once ``draws`` candidates are drawn, the touched ones that
    were not decisive follow (smallest first); no round starts after ``deadline`` (a ``time.monotonic()`` value).
    ``sample`` (a :class:`Sample`) is kept up to date."""
    sample = sample if sample is not None else Sample()
    sample.seed, sample.skews = seed, skew_ladder(skew)
    change = change_between(ruleset, a, b)
    build = search_builder(ruleset.name, change)
    reserve: list[Screened] = []
    n = 0
    while n < draws and (deadline is None or time.monotonic() < deadline):
        batch: list[Screened] = []
        for n in range(n, min(n + ROUND, draws)):
            document = {**build(SmallSource(seed * 1_000_003 + n, *sample.skews[n % len(sample.skews)]), a.edition),
                        "options": {}}
            sample.drawn += 1
            found = screen(document, a, b, change)
            if found is None or not found.touched:
                continue
            sample.touched += 1
            if found.decisive:
                sample.decisive += 1
                batch.append(found)
            else:
                reserve.append(found)
        n += 1
        yield from sorted(batch, key=lambda s: s.size)
    yield from sorted(reserve, key=lambda s: s.size)
