"""Contradictions, ambiguities and diffs, found by enumerating every trace of small scenarios.

* A **contradiction**: a scenario for which no trace satisfies every invariant. Its *core* is a minimal set of rule
  keys that cannot all hold (remove any one and some explored trace satisfies the rest): a minimal hitting set of
  the explored traces' violated-key sets, found by deletion. Each candidate trace is explained by the core key
  that rejects it.
* An **ambiguity**: two traces that satisfy every invariant, played with the same player choices, yet differ in
  what happens: the rules leave that order open. It is named by the first branch point (an order the rules settle,
  never a player's choice) where the two traces part.
* A **diff**: a scenario whose required traces (those satisfying every invariant) differ between two editions or
  two values of an option.

Every finding comes with a minimal scenario (``conformance.reduction``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from conformance.adapters.registry import import_engine_module
from conformance.editors.enumeration import Enumeration, Leaf, enumerate_traces, signature
from conformance.editors.small import DEFAULT_SKEW, small_scenarios
from conformance.reduction import reduce_scenario, well_formed
from conformance.scenarios import prepare_scenario
from reference_engine.kernel.invariant import Invariant
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


def contradiction_of(scenario: dict[str, Any], invariants: tuple[Invariant, ...], max_runs: int = 5000
                     ) -> Contradiction | None:
    """The contradiction on a prepared scenario, or None when some trace satisfies every invariant (or the walk
    was cut by ``max_runs``)."""
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False, max_runs=max_runs)
    if not walk.complete or walk.legal:
        return None
    core = minimal_core(walk.leaves, [inv.key for inv in invariants])
    if core is None:
        return None
    reasons = []
    seen: set[tuple[str, ...]] = set()
    for leaf in walk.leaves:
        order = signature(leaf.trace)
        if order in seen:
            continue
        seen.add(order)
        key = next(k for k in core if k in leaf.violations)
        reasons.append((_decisions(leaf), order, key, leaf.violations[key][0]))
    return Contradiction(scenario, core, reasons, walk.runs)


def _no_legal_trace(invariants: tuple[Invariant, ...], max_runs: int) -> Callable[[dict], bool]:
    def fails(document: dict[str, Any]) -> bool:
        _, scenario = prepare_scenario(document, "a candidate scenario")
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
        return walk.complete and not walk.legal
    return fails


# -- Ambiguities ---------------------------------------------------------------------------------------------------

@dataclass
class Ambiguity:
    """Two (or more) legal traces of ``scenario``, with the same player choices, parting at an order the rules
    settle: ``kind`` and ``label`` name that branch point; ``traces`` are the competing observable orders, the
    reference's reading first (at a ``reading:<option>`` branch point, every legal value's outcome: more than two
    for an option with three values)."""

    scenario: dict[str, Any]
    kind: str
    label: str
    traces: list[tuple[str, ...]]

    def render(self) -> str:
        if self.kind.startswith("reading:"):
            option = self.kind.split(":", 1)[1]
            head = (f"AMBIGUITY: the keys do not settle option {option}: more than one of its readings satisfies "
                    f"every invariant ({self.label}); the scenario's value is not enforced")
        else:
            head = (f"AMBIGUITY: the rules leave open the {self.kind} ({self.label}); {len(self.traces)} traces "
                    "satisfy every invariant with the same player choices")
        lines = [head, "minimal scenario:", _scenario_lines(self.scenario)]
        lines.append(_side_by_side([("trace 1", self.traces[0]), ("trace 2", self.traces[1])]))
        return "\n".join(lines)


def player_outcomes(scenario: dict[str, Any], max_runs: int = 2000) -> set[tuple[str, ...]] | None:
    """The observable outcomes the reference reading gives under every answer to every player choice (None when
    the tree exceeds ``max_runs``): what player choices account for."""
    walk = enumerate_traces(scenario, (), player_choices="branch", rules="reference", max_runs=max_runs)
    return set(walk.outcomes(walk.leaves)) if walk.complete else None


def ambiguities_of(walk: Enumeration, accountable: set[tuple[str, ...]] | None = None) -> list[Ambiguity]:
    """One :class:`Ambiguity` per kind of branch point at which legal traces with equal player choices part in
    their observable outcome, when at least one of them is an outcome no player choice accounts for (not in
    ``accountable``, by default :func:`player_outcomes` of the scenario); at a ``reading:<option>`` branch point
    it lists every legal value's outcome parting from the same base trace."""
    groups: dict[tuple, list[Leaf]] = {}
    for leaf in walk.legal:
        groups.setdefault(leaf.player_decisions, []).append(leaf)
    found: dict[str, Ambiguity] = {}
    values: dict[str, set[int | None]] = {}  # kind -> the answers at its branch point already listed
    for leaves in groups.values():
        distinct = walk.outcomes(leaves)
        if len(distinct) < 2:
            continue
        if accountable is None:  # computed only when needed: it is a second walk
            accountable = player_outcomes(walk.scenario) or set()
        if all(outcome in accountable for outcome in distinct):
            continue
        leaves_by_outcome = list(distinct.items())
        # Compare each outcome no player choice accounts for with one that is accounted for (the reference's
        # reading first), so the parting branch point is the order the rules leave open. Every leaf giving such an
        # outcome is compared: one outcome can be reached at several kinds of branch point, each reported.
        base = next((leaf for outcome, leaf in leaves_by_outcome if outcome in accountable),
                    leaves_by_outcome[0][1])
        for other in leaves:
            outcome = signature(other.trace, observable=True)
            if other is base or outcome in accountable or outcome == signature(base.trace, observable=True):
                continue
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


def generated(ruleset: Ruleset, edition: str, options: dict[str, Any], count: int, seed: int = 0,
              skew: float = DEFAULT_SKEW):
    """``count`` small generated scenario documents of ``ruleset`` (each with ``options``), from seeds seed...:
    the ruleset's builder drawn toward its simplest answers (:mod:`conformance.editors.small`; ``skew=1`` draws
    full-size scenarios as the runner does)."""
    return small_scenarios(ruleset.name, edition, options, count, seed, skew)


def explore_rules(ruleset: Ruleset, edition: str, invariants: tuple[Invariant, ...], *, options: dict | None = None,
                  scenarios: int = 40, seed: int = 0, max_runs: int = 300, documents: Iterable[dict] | None = None,
                  reduce_seconds: float = 8.0, stop_after: int | None = None,
                  skew: float = DEFAULT_SKEW) -> LintFindings:
    """Enumerate small scenarios (``documents``, or ``scenarios`` generated ones) under ``invariants``; report each
    contradiction (once per core) and each kind of ambiguity (once per kind), with a minimal scenario. A scenario
    whose tree exceeds ``max_runs`` plays is skipped (``too_large``)."""
    findings = LintFindings()
    cores: set[tuple[str, ...]] = set()
    kinds: set[str] = set()
    source = documents if documents is not None else generated(ruleset, edition, options or {}, scenarios, seed,
                                                               skew)
    for document in source:
        _, scenario = prepare_scenario(document, "a generated scenario")
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=max_runs)
        findings.traces += walk.runs
        if not walk.complete:
            findings.too_large += 1
            continue
        findings.scenarios += 1
        if not walk.legal:
            small = reduce_scenario(document, _no_legal_trace(invariants, max_runs), well_formed, reduce_seconds)
            _, prepared = prepare_scenario(small, "the reduced scenario")
            found = contradiction_of(prepared, invariants)
            if found is not None and found.core not in cores:
                cores.add(found.core)
                findings.contradictions.append(found)
        for ambiguity in ambiguities_of(walk):
            if ambiguity.kind in kinds:
                continue
            kinds.add(ambiguity.kind)
            small = reduce_scenario(document, _ambiguous_at(ambiguity.kind, invariants, max_runs), well_formed,
                                    reduce_seconds)
            _, prepared = prepare_scenario(small, "the reduced scenario")
            again = [a for a in ambiguities_of(enumerate_traces(prepared, invariants, player_choices="scenario",
                                                                max_runs=max_runs)) if a.kind == ambiguity.kind]
            findings.ambiguities.append(again[0] if again else ambiguity)
        if stop_after is not None and len(findings.contradictions) + len(findings.ambiguities) >= stop_after:
            break
    return findings


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
         skew: float = DEFAULT_SKEW, counts: dict[str, int] | None = None) -> list[Difference]:
    """Up to ``limit`` minimal scenarios whose required traces differ between sides ``a`` and ``b``. ``counts``, if
    given, receives ``compared`` (scenarios enumerated on both sides) and ``too_large`` (skipped: a side's tree
    exceeded ``max_runs``)."""
    found: list[Difference] = []
    seen: set = set()
    counts = counts if counts is not None else {}
    counts.update(compared=0, too_large=0)
    source = documents if documents is not None else generated(ruleset, a.edition, {}, scenarios, seed, skew)
    for document in source:
        left, right = a.required(document, max_runs), b.required(document, max_runs)
        if left is None or right is None:
            counts["too_large"] += 1
            continue
        counts["compared"] += 1
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
    return found


def _valid_both(a: Side, b: Side) -> Callable[[dict], bool]:
    def valid(document: dict[str, Any]) -> bool:
        return all(well_formed({**document, "edition": s.edition, "options": {**document.get("options", {}),
                                                                               **s.options}}) for s in (a, b))
    return valid


# -- Rendering -------------------------------------------------------------------------------------------------------

def _decisions(leaf: Leaf) -> str:
    return "; ".join(f"{d.kind}: answer {d.chosen + 1} of {d.count} ({d.label})" for d in leaf.rule_decisions
                     if d.chosen)


def _scenario_lines(scenario: dict[str, Any]) -> str:
    lines = [f"  players {', '.join(scenario['players'])} (active {scenario['active_player']}); edition "
             f"{scenario['edition']}; options {scenario.get('options', {})}"]
    for obj in scenario["objects"]:
        abilities = "; ".join(f"{ab['id']}: when {_trigger(ab['trigger'])} -> {_effect(ab['effect'])}"
                              + (" (optional)" if ab.get("optional") else "") for ab in obj.get("abilities", ()))
        lines.append(f"  {obj['id']} ({obj.get('controller', obj['owner'])}, {obj['zone']})"
                     + (f": {abilities}" if abilities else ""))
    for s, step in enumerate(scenario["script"]):
        for action in step["actions"]:
            lines.append(f"  step {s}: {action.get('by', '')} {_effect(action['effect'])}")
    if scenario.get("choices"):
        lines.append(f"  choices {scenario['choices']}")
    return "\n".join(lines)


def _trigger(trigger: dict[str, Any]) -> str:
    return " ".join(f"{v}" if k == "event" else f"{k}={v}" for k, v in trigger.items())


def _effect(effect: list[dict[str, Any]]) -> str:
    return ", ".join(" ".join(str(v) for k, v in a.items() if k not in ("snatch_check",))
                     + (f" [snatch check: {_effect(a['snatch_check'])}]" if a.get("snatch_check") else "")
                     for a in effect) or "nothing"


def _side_by_side(columns: list[tuple[str, tuple[str, ...]]], width: int = 58) -> str:
    (ha, a), (hb, b) = columns
    lines = [f"  {ha[:width]:<{width}} | {hb[:width]}"]
    for n in range(max(len(a), len(b))):
        left = a[n] if n < len(a) else ""
        right = b[n] if n < len(b) else ""
        mark = " " if left == right else "*"
        lines.append(f"{mark} {left[:width]:<{width}} | {right[:width]}")
    return "\n".join(lines)
