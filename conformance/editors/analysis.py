"""Contradictions, ambiguities and diffs, found by enumerating every trace of small scenarios.

Each is decided by the invariants alone, never by comparison with a reference engine's reading, and on what a
player can tell apart: traces with the same observable outcome (``signature(observable=True)``) are one outcome.

* A **contradiction**: a scenario none of whose outcomes is consistent with every invariant (an outcome is
  rejected by a key when every trace giving it violates that key). Its *core* is a minimal set of rule keys that
  cannot all hold (remove any one and some outcome satisfies the rest): a minimal hitting set of the outcomes'
  rejecting-key sets, found by deletion. Each candidate outcome is explained by one trace of it and the core key
  that rejects that trace (:func:`explaining_leaves`).
* An **ambiguity**: legal traces (each satisfying every invariant), played with the same player choices, whose
  outcomes differ when no one legal reading of the rules reaches all of them through the players' own choices
  (a player ordering two instances of one ability is never an ambiguity, whatever reading a draft makes). It is
  named by the first branch point (an order the rules settle, never a player's choice) where two traces part.
* A **diff**: a scenario whose required traces (those satisfying every invariant) differ between two editions or
  two values of an option.

Every finding comes with a minimal scenario (``conformance.shrinking.reduction``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from conformance.adapters.registry import import_engine_module
from conformance.editors.enumeration import Enumeration, Leaf, enumerate_traces, signature
from conformance.editors.small import DEFAULT_SKEW, small_scenarios
from conformance.editors.targeting import situation
from conformance.shrinking.reduction import reduce_scenario
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.invariant import Invariant
from conformance.editors.ambiguity import Ambiguity
from conformance.editors.plain import _decisions, _scenario_lines
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.kernel.traceview import TraceView


# -- Choosing the invariants for a run (--with, --without) ----------------------------------------------------------

def load_invariants(spec: str) -> list[Invariant]:
    """``module:attribute`` naming an :class:`Invariant` or a list/tuple of them.

    The module is imported as ``--engine module:attribute`` imports one (:func:`import_engine_module`): from the
    installed packages and ``PYTHONPATH`` first, then from the current directory, saying so on stderr. Raises
    ValueError for a bad spec, a module that cannot be imported (whatever its import raised, named with the
    exception), a missing attribute, or a value that is not invariants."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"--with takes module:attribute, not {spec!r}")
    try:
        module = import_engine_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # importing someone's module may raise anything, even SystemExit
        raise ValueError(f"--with {spec}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    if not hasattr(module, attribute):
        raise ValueError(f"--with {spec}: the module {module_name} has no attribute {attribute!r}")
    value = getattr(module, attribute)
    found = [value] if isinstance(value, Invariant) else list(value) if isinstance(value, (list, tuple)) else None
    if not found or not all(isinstance(v, Invariant) for v in found):
        raise ValueError(f"{spec} is neither an Invariant nor a list of Invariants")
    return found


def edited_invariants(ruleset: Ruleset, edition: str, with_: Iterable[Invariant] = (),
                      without: Iterable[str] = ()) -> tuple[Invariant, ...]:
    """The invariants of ``ruleset`` for ``edition``, each of ``with_`` replacing the one with its key (or added),
    then every key in ``without`` dropped. Raises ValueError naming a ``with_`` invariant declared for another
    ruleset, KeyError naming a ``without`` key the set does not have."""
    chosen = {inv.key: inv for inv in ruleset.invariants_for(edition)}
    for inv in with_:
        if inv.ruleset != ruleset.name:
            raise ValueError(f"--with: the invariant {inv.key} is declared for the ruleset {inv.ruleset}, not "
                             f"{ruleset.name}")
        chosen[inv.key] = inv
    for key in without:
        if key not in chosen:
            raise KeyError(f"--without {key}: no such rule key in {ruleset.name} {edition} (known: {', '.join(chosen)})")
        del chosen[key]
    return tuple(chosen.values())


class _ReadLog(dict):
    """Resolved options that note every name read (``[name]`` or ``.get``)."""

    def __init__(self, options: dict[str, Any], log: set[str]):
        super().__init__(options)
        self.log = log

    def __getitem__(self, name: str) -> Any:
        self.log.add(name)
        return super().__getitem__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self.log.add(name)
        return super().get(name, default)


def keys_reading(option: str, scenario: dict[str, Any], traces: Iterable[dict[str, Any]],
                 invariants: Iterable[Invariant]) -> tuple[str, ...]:
    """The rule keys among ``invariants`` whose check reads ``option`` when judging any of ``traces`` of the prepared
    ``scenario`` (give the traces of every reading: a check may read an option only on some traces): the keys that
    encode that option's reading (drop them and the judge no longer knows it). Each check gets a view of its own,
    so a reading cached by another check's observations is still seen."""
    traces = list(traces)
    found = []
    for inv in invariants:
        log: set[str] = set()
        for trace in traces:
            try:
                inv.check(TraceView(scenario, trace, _ReadLog(scenario["options"], log)))
            except Exception:  # noqa: BLE001 - a check that cannot read this trace reads no option on it
                continue
        if option in log:
            found.append(inv.key)
    return tuple(found)


# -- Contradictions ---------------------------------------------------------------------------------------------------

def minimal_core(leaves: list[Leaf], keys: Iterable[str]) -> tuple[str, ...] | None:
    """A minimal set of ``keys`` that every leaf violates at least one of (None if some leaf violates none):
    removing any one key leaves some leaf that satisfies the rest."""
    sets = [set(leaf.violations) for leaf in leaves]
    if not sets or any(not s for s in sets):
        return None
    core = [k for k in keys if any(k in s for s in sets)] + sorted({k for s in sets for k in s} - set(keys))
    for key in list(core):
        rest = set(core) - {key}
        if all(s & rest for s in sets):
            core.remove(key)
    return tuple(core)


@dataclass
class Contradiction:
    """No trace satisfies every invariant on ``scenario``; ``core`` cannot all hold; ``reasons`` explains each
    explored candidate trace: (its rule-order decisions, its observable order, the core key rejecting it, the
    message)."""

    scenario: dict[str, Any]
    core: tuple[str, ...]
    reasons: list[tuple[str, tuple[str, ...], str, str]]
    explored: int

    def render(self) -> str:
        lines = [f"CONTRADICTION: these rule keys cannot all hold: {', '.join(self.core)} "
                 f"(drop any one and a trace exists; {self.explored} traces explored)",
                 "minimal scenario:", _scenario_lines(self.scenario), "why each candidate order is ruled out:"]
        for n, (decisions, order, key, message) in enumerate(self.reasons, 1):
            lines.append(f"  candidate {n}: {decisions or 'the reference order'}")
            lines.extend(f"      {line}" for line in order)
            lines.append(f"    rejected by {key}: {message}")
        return "\n".join(lines)


@dataclass
class _Outcome:
    """One outcome of a walk (traces no player can tell apart): the keys rejecting every trace that gives it
    (``violations``, as a leaf's) and those traces."""

    violations: dict[str, list[str]]
    leaves: list[Leaf]


def rejected_outcomes(walk: Enumeration) -> list[_Outcome]:
    """The walk's leaves grouped into outcomes no player can tell apart (the same :func:`signature` with
    ``canonical=True``: the same things in the same order, each queue holding the same triggers throughout; they
    differ at most in bookkeeping such as a front placement into an empty queue), each with the keys that reject all
    of its traces: a key rejects an outcome only when no trace giving it satisfies the key. An outcome with no such
    key is consistent with every key (each accepts some trace of it, and the traces differ in nothing a player could
    tell)."""
    grouped: dict[tuple[str, ...], list[Leaf]] = {}
    for leaf in walk.leaves:
        grouped.setdefault(signature(leaf.trace, canonical=True), []).append(leaf)
    out = []
    for leaves in grouped.values():
        common = set(leaves[0].violations).intersection(*(set(leaf.violations) for leaf in leaves[1:]))
        out.append(_Outcome({k: v for k, v in leaves[0].violations.items() if k in common}, leaves))
    return out


def explaining_leaves(groups: Iterable[list[Leaf]], core: Iterable[str]) -> list[Leaf]:
    """One trace per candidate outcome (each of ``groups`` the traces giving one outcome) to explain it by: its
    reasons are that trace's own violations, never another trace's. The trace chosen is one rejected by the fewest
    rule keys, preferring (as a tie-break) one a core key not yet shown by an earlier candidate rejects, so the
    candidates show each core key at work; the walk's order breaks what remains."""
    core = set(core)
    shown: set[str] = set()
    chosen = []
    for leaves in groups:
        leaf = min(leaves, key=lambda leaf: (len(leaf.violations), not (core & set(leaf.violations)) - shown))
        shown |= set(leaf.violations)
        chosen.append(leaf)
    return chosen


def contradiction_of(scenario: dict[str, Any], invariants: tuple[Invariant, ...], max_runs: int = 5000
                     ) -> Contradiction | None:
    """The contradiction on a prepared scenario, or None when some outcome is consistent with every invariant (or
    the walk was cut by ``max_runs``). The walk is not pruned: judging an outcome needs every trace giving it.
    Outcomes no player can tell apart are one outcome (a restored trigger put at the front of an empty queue or
    appended to it): keys that disagree only on such bookkeeping are no contradiction of the rules."""
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False, max_runs=max_runs)
    if not walk.complete or walk.legal:
        return None
    outcomes = rejected_outcomes(walk)
    core = minimal_core(outcomes, [inv.key for inv in invariants])
    if core is None:
        return None
    reasons = []
    for leaf in explaining_leaves([outcome.leaves for outcome in outcomes], core):
        key = next(k for k in core if k in leaf.violations)
        reasons.append((_decisions(leaf), signature(leaf.trace), key, leaf.violations[key][0]))
    return Contradiction(scenario, core, reasons, walk.runs)


def _no_legal_trace(invariants: tuple[Invariant, ...], max_runs: int) -> Callable[[dict], bool]:
    """Whether a scenario document has no outcome consistent with every invariant (a pruned walk first: a legal
    trace settles it at once)."""
    def fails(document: dict[str, Any]) -> bool:
        _, scenario = prepare_scenario(document, "a candidate scenario")
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
        if not walk.complete or walk.legal:
            return False
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False, max_runs=max_runs)
        return walk.complete and not walk.legal and all(o.violations for o in rejected_outcomes(walk))
    return fails


# -- Ambiguities ---------------------------------------------------------------------------------------------------

def player_outcomes(scenario: dict[str, Any], reading: tuple[int, ...] = (), max_runs: int = 2000,
                    player_choices: str = "ties") -> set[tuple[str, ...]] | None:
    """The observable outcomes reached by following one ``reading`` of the rules (the answers of a leaf's rule
    branch points, :attr:`Leaf.reading`; ``()`` answers 0 everywhere) under every answer the scenario's choices leave
    to the players (``player_choices="ties"``: the order of triggers its choices rank alike, such as two instances of
    one ability; ``"branch"``: every answer to every player choice), None when the tree exceeds ``max_runs``: what
    the players' own choices account for, that reading held. No invariant judges them: which outcomes are legal is
    asked of the invariants separately."""
    walk = enumerate_traces(scenario, (), player_choices=player_choices, rules=tuple(reading), max_runs=max_runs)
    return set(walk.outcomes(walk.leaves)) if walk.complete else None


def _accountable(walk: Enumeration, legal: list[Leaf], outcomes: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The outcomes the players' choices account for under the legal reading that accounts for most of ``outcomes``
    (every one, when some reading does: then the rules settle the scenario and the players did the rest). Each
    distinct reading of the ``legal`` leaves is tried, in the walk's order (the reference's reading, answer 0
    everywhere, first when it is legal); none is the reference engine's by right: a draft that changes a reading is
    judged by the readings its own invariants allow."""
    best: set[tuple[str, ...]] = set()
    tried: set[tuple[int, ...]] = set()
    for leaf in sorted(legal, key=lambda leaf: any(leaf.reading)):  # stable: the all-zero reading first
        if leaf.reading in tried:
            continue
        tried.add(leaf.reading)
        reached = player_outcomes(walk.scenario, leaf.reading) or set()
        if len(reached & outcomes) > len(best & outcomes):
            best = reached
        if outcomes <= best:
            break
    return best


def ambiguities_of(walk: Enumeration, accountable: set[tuple[str, ...]] | None = None) -> list[Ambiguity]:
    """One :class:`Ambiguity` per kind of branch point at which legal traces with equal player choices part in
    their observable outcome, when no one reading of the rules accounts for all of those outcomes through the
    players' own choices (:func:`_accountable`; ``accountable`` overrides it). Legality is the invariants' alone;
    outcomes no player can tell apart are one outcome. At a ``reading:<option>`` branch point it lists every legal
    value's outcome parting from the same base trace."""
    groups: dict[tuple, list[Leaf]] = {}
    for leaf in walk.legal:
        groups.setdefault(leaf.player_decisions, []).append(leaf)
    found: dict[str, Ambiguity] = {}
    values: dict[str, set[int | None]] = {}  # kind -> the answers at its branch point already listed
    for leaves in groups.values():
        distinct = walk.outcomes(leaves)
        if len(distinct) < 2:
            continue
        covered = accountable if accountable is not None else _accountable(walk, leaves, set(distinct))
        if all(outcome in covered for outcome in distinct):
            continue
        leaves_by_outcome = list(distinct.items())
        # Compare each outcome the players' choices do not account for with one they do (the accounting reading's
        # first), so the parting branch point is the order the rules leave open. Every leaf giving such an outcome
        # is compared, and the one nearest the base names the outcome's branch point.
        base = next((leaf for outcome, leaf in leaves_by_outcome if outcome in covered), leaves_by_outcome[0][1])
        # Each outcome is named by the branch points that reach it alone: a leaf answering otherwise than the base
        # only at branch points of one kind. A leaf reaching it by several at once parts first, maybe, at an order
        # the text settles (flipped alone, it breaks a key), and would head a false ambiguity of its own (issue 28
        # item 4); only when no single kind reaches an outcome is it named by its nearest leaf's first parting.
        naming: list[tuple[tuple[str, ...], Leaf]] = []
        nearest: dict[tuple[str, ...], Leaf] = {}
        alone: dict[tuple[str, ...], dict[str, Leaf]] = {}
        for other in leaves:
            outcome = signature(other.trace, observable=True)
            if other is base or outcome in covered or outcome == signature(base.trace, observable=True):
                continue
            kinds = _differing_kinds(base, other)
            if len(kinds) == 1:
                alone.setdefault(outcome, {}).setdefault(next(iter(kinds)), other)
            if outcome not in nearest or _distance(base, other) < _distance(base, nearest[outcome]):
                nearest[outcome] = other
        for outcome, other in nearest.items():
            naming += list((outcome, leaf) for leaf in alone[outcome].values()) if outcome in alone \
                else [(outcome, other)]
        for outcome, other in naming:
            kind, label = _parting(base, other)
            if kind not in found:
                found[kind] = Ambiguity(walk.scenario, kind, label,
                                        [signature(base.trace, True), outcome])
                values[kind] = {_parted_value(base, other)}
            elif kind.startswith("reading:") and found[kind].traces[0] == signature(base.trace, True) \
                    and _parted_value(base, other) not in values[kind]:
                # another value of the same option, also legal: its first leaf (later branches at their first answer)
                values[kind].add(_parted_value(base, other))
                found[kind].traces.append(outcome)
    return list(found.values())


def legal_parting(walk: Enumeration) -> tuple[set[str], set[str]]:
    """``(both, apart)``: the kinds of rule branch points at which, at one place of the walk's tree, two answers
    each led to a legal trace (with the same player choices before it), and of those the kinds at which such answers
    led to different sets of observable outcomes. A kind in ``both`` but not ``apart`` was left open by the
    invariants and made no difference a player could see (issue 28 item 2: one outcome, no open reading)."""
    below: dict[tuple[tuple, str], dict[int, set[tuple[str, ...]]]] = {}
    for leaf in walk.legal:
        path: list[tuple[str | None, int]] = []
        for decision in leaf.decisions:
            if decision.player is None:
                below.setdefault((tuple(path), decision.kind), {}).setdefault(decision.chosen, set()).add(
                    signature(leaf.trace, observable=True))
            path.append((decision.player, decision.chosen))
    both = {kind for (_, kind), answers in below.items() if len(answers) > 1}
    apart = {kind for (_, kind), answers in below.items()
             if len(answers) > 1 and len({frozenset(o) for o in answers.values()}) > 1}
    return both, apart


def _differing_kinds(a: Leaf, b: Leaf) -> set[str]:
    """The kinds of the rule branch points ``b`` answers otherwise than ``a``, place by place (one only ``b``
    meets counts when its answer is not 0)."""
    x, y = a.rule_decisions, b.rule_decisions
    kinds = {q.kind for p, q in zip(x, y) if p.chosen != q.chosen or p.kind != q.kind}
    return kinds | {q.kind for q in y[len(x):] if q.chosen} | {p.kind for p in x[len(y):] if p.chosen}


def _distance(a: Leaf, b: Leaf) -> int:
    """How many rule branch points ``b`` answers otherwise than ``a`` (one met by only one of them counts)."""
    x, y = a.reading, b.reading
    return sum(p != q for p, q in zip(x, y)) + sum(1 for v in (x[len(y):] or y[len(x):]) if v)


def _parted_value(a: Leaf, b: Leaf) -> int | None:
    """``b``'s answer at the first branch point where it parts from ``a`` (None if none)."""
    return next((y.chosen for x, y in zip(a.rule_decisions, b.rule_decisions) if x.chosen != y.chosen), None)


def _parting(a: Leaf, b: Leaf) -> tuple[str, str]:
    for x, y in zip(a.rule_decisions, b.rule_decisions):
        if x.chosen != y.chosen:
            return x.kind, x.label
    return "order", "the traces differ without a differing branch point"


def _ambiguous_at(kind: str, invariants: tuple[Invariant, ...], max_runs: int) -> Callable[[dict], bool]:
    def fails(document: dict[str, Any]) -> bool:
        _, scenario = prepare_scenario(document, "a candidate scenario")
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
        return walk.complete and any(a.kind == kind for a in ambiguities_of(walk))
    return fails


# -- Sweeping generated scenarios: lint-rules ---------------------------------------------------------------------

@dataclass
class LintFindings:
    """What :func:`explore_rules` found: contradictions, ambiguities (one per kind of open order), how many
    scenarios were explored (and skipped as too large to enumerate), and traces explored in all."""

    contradictions: list[Contradiction] = field(default_factory=list)
    ambiguities: list[Ambiguity] = field(default_factory=list)
    scenarios: int = 0
    too_large: int = 0
    traces: int = 0
    # branch-point id -> enumerated scenarios meeting it: how far the search went at each (every id of the ruleset)
    met: dict[str, int] = field(default_factory=dict)
    # branch-point id -> scenarios in which two of its readings were both allowed and led to the same outcomes (by
    # the invariants alone; for a point an option names, the option's other values): one outcome, no open reading
    agreed: dict[str, int] = field(default_factory=dict)
    # branch-point id -> scenarios meeting it that had a legal trace: only there can one say which readings the text
    # allows (in a scenario with no legal trace, a contradiction, it allows none)
    met_legal: dict[str, int] = field(default_factory=dict)
    unfinished: int = 0  # plays abandoned as loops no rule ends (too many trace entries)
    interrupted: bool = False  # Ctrl-C or SIGTERM stopped the search: what it found so far is kept

    def reach(self) -> str:
        """How far the search went, branch point by branch point, in words."""
        met = [f"{point} {n}" for point, n in self.met.items() if n]
        never = [point for point, n in self.met.items() if not n]
        open_points = {a.kind for a in self.ambiguities}
        agreed = [f"{point} {n}" for point, n in self.agreed.items() if n and point not in open_points]
        settled = [point for point, n in self.met.items() if self.met_legal.get(point) and point not in open_points
                   and not self.agreed.get(point)]
        refused = [point for point, n in self.met.items() if n and not self.met_legal.get(point)]
        return (f"enumerated scenarios meeting each branch point: {', '.join(met) or 'none'}"
                + (f"; never met: {', '.join(never)}" if never else "")
                + (f"; met, its readings both allowed but never an outcome a player can tell apart (one outcome, "
                   f"no open reading), in how many scenarios: {', '.join(agreed)}" if agreed else "")
                + (f"; met, only one reading allowed wherever met (the text settles it in this sample): "
                   f"{', '.join(settled)}" if settled else "")
                + (f"; met only in scenarios with no legal trace (every reading refused: a contradiction): "
                   f"{', '.join(refused)}" if refused else "")
                + (f"; {self.unfinished} plays never ended (a loop nothing in the text ends)" if self.unfinished
                   else ""))


def generated(ruleset: Ruleset, edition: str, options: dict[str, Any], count: int, seed: int = 0,
              skew: float = DEFAULT_SKEW):
    """``count`` small generated scenario documents of ``ruleset`` (each with ``options``), from seeds seed...:
    the ruleset's builder drawn toward its simplest answers (:mod:`conformance.editors.small`; ``skew=1`` draws
    full-size scenarios as the runner does)."""
    return small_scenarios(ruleset.name, edition, options, count, seed, skew)


def explore_rules(ruleset: Ruleset, edition: str, invariants: tuple[Invariant, ...], *, options: dict | None = None,
                  scenarios: int = 40, seed: int = 0, max_runs: int = 300, documents: Iterable[dict] | None = None,
                  reduce_seconds: float = 8.0, stop_after: int | None = None,
                  skew: float = DEFAULT_SKEW, per_point: int = 0, option_search: bool = False) -> LintFindings:
    """Enumerate small scenarios (``documents``, or ``scenarios`` generated ones and, with ``per_point``, more drawn
    until each branch point has been met that many times: :func:`conformance.editors.readings.aimed_sample`) under ``invariants``; report each
    contradiction (once per core), each kind of ambiguity (once per branch point) and, with ``option_search``,
    each option whose readings lead apart (:func:`conformance.editors.readings.option_readings`, once per option),
    with a minimal scenario. A scenario whose tree exceeds ``max_runs`` plays is skipped (``too_large``). Ctrl-C or
    SIGTERM (a KeyboardInterrupt) stops the search and returns what it found so far, ``interrupted`` set: the
    caller reports it, then exits as interrupted."""
    from conformance.editors.readings import aimed_sample

    findings = LintFindings(met=dict.fromkeys(ruleset.branch_points, 0))
    if documents is not None:
        source: Iterable[dict] = documents
    elif per_point:
        source = aimed_sample(ruleset, edition, options or {}, scenarios, seed, skew, per_point=per_point,
                              met=findings.met)
    else:
        source = generated(ruleset, edition, options or {}, scenarios, seed, skew)
    try:
        _search(ruleset, source, documents is None, invariants, findings, max_runs, reduce_seconds, stop_after,
                option_search)
    except KeyboardInterrupt:
        findings.interrupted = True
    return findings


def _search(ruleset: Ruleset, source: Iterable[dict], drawn: bool, invariants: tuple[Invariant, ...],
            findings: LintFindings, max_runs: int, reduce_seconds: float, stop_after: int | None,
            option_search: bool) -> None:
    """:func:`explore_rules`' loop: enumerate each document of ``source`` and judge it into ``findings``."""
    for document in source:
        if drawn and not situation(document):
            continue  # drawn, but no editor's situation (a restored trigger that was never missed)
        _, scenario = prepare_scenario(document, "a generated scenario")
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
        findings.traces += walk.runs
        findings.unfinished += walk.unfinished
        if not walk.complete:
            findings.too_large += 1
            continue
        judge_walk(ruleset, document, walk, invariants, findings, max_runs=max_runs, reduce_seconds=reduce_seconds,
                   option_search=option_search)
        if stop_after is not None and len(findings.contradictions) + len(findings.ambiguities) >= stop_after:
            break


def judge_walk(ruleset: Ruleset, document: dict[str, Any], walk: Enumeration, invariants: tuple[Invariant, ...],
               findings: LintFindings, *, max_runs: int, reduce_seconds: float = 8.0, option_search: bool = False
               ) -> list[Contradiction | Ambiguity]:
    """Judge one scenario document from ``walk``, the complete enumeration (pruned or not: only its legal leaves
    and the branch points met are read) of its prepared scenario under ``invariants``: count it in ``findings``
    (``scenarios``, ``met``) and add to it each contradiction whose core, each ambiguity whose branch point and
    (with ``option_search``) each open option reading whose option ``findings`` does not hold yet, each with a
    minimal scenario. Returns the findings added, in the order added. Raises what the invariants' checks raise
    (:class:`~conformance.editors.enumeration.InvariantCrashed`) on the reduced scenarios."""
    from conformance.editors.readings import option_readings

    added: list[Contradiction | Ambiguity] = []
    findings.scenarios += 1
    # met by any play, a pruned one too: a scenario with no legal trace still met them
    for kind in walk.met | {d.kind for leaf in walk.leaves for d in leaf.rule_decisions}:
        findings.met[kind] = findings.met.get(kind, 0) + 1
        if walk.legal:
            findings.met_legal[kind] = findings.met_legal.get(kind, 0) + 1
    both, apart = legal_parting(walk)
    agreed = both - apart
    if option_search and walk.legal:
        done = {a.option for a in findings.ambiguities if a.option is not None}
        for reading in option_readings(ruleset, document, walk, invariants, max_runs=max_runs, done=done,
                                       reduce_seconds=reduce_seconds, agreed=agreed):
            added.append(reading)
            findings.ambiguities.append(reading)
    for kind in agreed:
        findings.agreed[kind] = findings.agreed.get(kind, 0) + 1
    if not walk.legal and _no_legal_trace(invariants, max_runs)(document):
        small = reduce_scenario(document, _no_legal_trace(invariants, max_runs), situation, reduce_seconds)
        _, prepared = prepare_scenario(small, "the reduced scenario")
        found = contradiction_of(prepared, invariants)
        if found is not None and found.core not in {c.core for c in findings.contradictions}:
            added.append(found)
            findings.contradictions.append(found)
    kinds = {a.kind for a in findings.ambiguities if a.option is None}
    for ambiguity in ambiguities_of(walk):
        if ambiguity.kind in kinds:
            continue
        kinds.add(ambiguity.kind)
        small = reduce_scenario(document, _ambiguous_at(ambiguity.kind, invariants, max_runs), situation,
                                reduce_seconds)
        _, prepared = prepare_scenario(small, "the reduced scenario")
        again = [a for a in ambiguities_of(enumerate_traces(prepared, invariants, player_choices="scenario",
                                                            max_runs=max_runs)) if a.kind == ambiguity.kind]
        added.append(again[0] if again else ambiguity)
        findings.ambiguities.append(added[-1])
    return added


# Diffs live in conformance.editors.differ; re-exported here, where the editors' commands and tests import them.
from conformance.editors.differ import Difference, Side, diff  # noqa: E402,F401
