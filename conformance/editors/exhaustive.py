"""``lint-rules --exhaustive``: every scenario within a bound judged, with the statistics a model checker prints.

:func:`exhaust` walks :func:`conformance.editors.bounded.bounded_scenarios` (the ruleset's own builder, every answer
within the bound, symmetry-reduced) and judges each scenario as ``lint-rules``' sampled search judges one
(:func:`conformance.editors.analysis.judge_walk`: every branch-point alternative, every option value of a branch
point an option names, contradictions, ambiguities and open readings with minimal scenarios). Each scenario is
enumerated unpruned, so that every candidate trace is there to count:

* per rule key, ``rejected``: scenarios where some candidate trace violates it; ``decided``: scenarios where it is
  the only key some candidate trace violates (drop it and that trace is legal). A key that never rejects is
  *vacuous* within the bound, one that rejects only alongside another key *redundant* (TLC's actions never taken);
* per branch point, ``met``: scenarios meeting it; ``changed``: scenarios where, at one place it was decided, its
  alternatives led to different sets of observable outcomes.

The statistics are one JSON document (``schemas/exhaustive-stats.schema.json``, format
``trigger-conformance/exhaustive-stats/1``). ``--shard I/N`` judges the distinct scenarios whose index in the walk's
fixed order is ``I-1`` modulo ``N`` (every shard walks the whole bound, which is cheap beside judging);
:func:`merge` adds shards' documents up to the document one run would write (tests/test_editors_exhaustive.py).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

from conformance.editors.analysis import Ambiguity, Contradiction, LintFindings, judge_walk
from conformance.editors.bounded import Bound, Walk, bounded_scenarios
from conformance.editors.enumeration import Enumeration, enumerate_traces, signature
from conformance.editors.targeting import situation
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.ruleset import Ruleset

FORMAT = "trigger-conformance/exhaustive-stats/1"
# The default bound of each ruleset: what exhausts in a few minutes on one busy core (docs/exhaustive.md). A
# Redemption scenario is never smaller than six objects with six abilities (its builder's simplest answer).
DEFAULT_BOUNDS = {
    "momon-wonder": "players=2,objects=2,abilities=2,actions=2,depth=4,values=4",
    "mtg": "players=2,objects=2,abilities=2,actions=2,depth=3,values=4",
    "redemption": "players=2,objects=7,abilities=7,actions=2,depth=2,values=4",
}
DEFAULT_MAX_RUNS = 2000


def default_bound(ruleset: str) -> Bound:
    """The default bound of ``ruleset`` (:data:`DEFAULT_BOUNDS`; :class:`Bound`'s own defaults for another)."""
    return Bound.parse(DEFAULT_BOUNDS.get(ruleset))


def parse_shard(text: str | None) -> tuple[int, int]:
    """``I/N`` -> (I, N) with 1 <= I <= N; None -> (1, 1). Raises ValueError for anything else."""
    if text is None:
        return 1, 1
    part, sep, whole = text.partition("/")
    try:
        index, count = int(part), int(whole)
    except ValueError:
        raise ValueError(f"--shard takes I/N (whole numbers, 1 <= I <= N), not {text!r}") from None
    if not sep or not 1 <= index <= count:
        raise ValueError(f"--shard takes I/N with 1 <= I <= N, not {text!r}")
    return index, count


@dataclass
class Found:
    """A finding of an exhaustive run: its ``kind`` (contradiction, ambiguity, open-reading), what it is once per run
    (``key``: the core, the branch point or the option), the index of the scenario it was found at, and the finding
    itself (None once read back from JSON)."""

    kind: str
    key: str
    scenario: int
    finding: Contradiction | Ambiguity | None = None
    text: str = ""
    branch_point: str | None = None  # an open reading's: the branch point its option names

    def as_json(self) -> dict[str, Any]:
        found = {"kind": self.kind, "key": self.key, "scenario": self.scenario, "text": self.text}
        if self.branch_point is not None:
            found["branch_point"] = self.branch_point
        return found


def _found(item: Contradiction | Ambiguity, index: int) -> Found:
    if isinstance(item, Contradiction):
        return Found("contradiction", ",".join(item.core), index, item, item.render())
    if item.option is not None:
        return Found("open-reading", item.option, index, item, item.render(), item.kind)
    return Found("ambiguity", item.kind, index, item, item.render())


def key_counts(walk: Enumeration) -> dict[str, tuple[bool, bool]]:
    """Rule key -> (rejected, decided) on one unpruned walk: whether some candidate trace violates it, and whether
    some candidate trace violates it alone. Keys no trace violates are left out."""
    out: dict[str, tuple[bool, bool]] = {}
    for leaf in walk.leaves:
        for key in leaf.violations:
            rejected, decided = out.get(key, (False, False))
            out[key] = (True, decided or len(leaf.violations) == 1)
    return out


def changing_points(walk: Enumeration) -> set[str]:
    """The rule branch points (kinds) at which, at some one place of the walk's tree, different answers led to
    different sets of observable outcomes (over every leaf, legal or not)."""
    below: dict[tuple[tuple[int, ...], str], dict[int, set[tuple[str, ...]]]] = {}
    for leaf in walk.leaves:
        outcome = signature(leaf.trace, observable=True)
        path: list[int] = []
        for decision in leaf.decisions:
            if decision.player is None:
                below.setdefault((tuple(path), decision.kind), {}).setdefault(decision.chosen, set()).add(outcome)
            path.append(decision.chosen)
    return {kind for (_, kind), answers in below.items()
            if len(answers) > 1 and len({frozenset(o) for o in answers.values()}) > 1}


def _new_stats(ruleset: Ruleset, edition: str, options: dict[str, Any], bound: Bound, shard: tuple[int, int],
               max_runs: int, keys: Iterable[str]) -> dict[str, Any]:
    return {"format": FORMAT, "ruleset": ruleset.name, "edition": edition, "options": dict(options),
            "bound": {**{k: getattr(bound, k) for k in Bound.__dataclass_fields__}},
            "shard": {"parts": [shard[0]], "of": shard[1]}, "max_runs": max_runs,
            "walk": {"builds": 0, "outside": {}, "renamings": 0, "distinct": 0},
            "scenarios": {"judged": 0, "not_situation": 0, "too_large": 0, "other_shards": 0},
            "traces": 0, "unfinished": 0, "outcomes": 0, "legal_outcomes": 0, "seconds": 0.0,
            "exhausted": True, "stopped": None,
            "rule_keys": {k: {"rejected": 0, "decided": 0} for k in keys},
            "branch_points": {p: {"met": 0, "changed": 0} for p in ruleset.branch_points},
            "findings": []}


def _count_walk(stats: dict[str, Any], walk: Enumeration) -> None:
    stats["outcomes"] += len(walk.outcomes(walk.leaves))
    stats["legal_outcomes"] += len(walk.outcomes())
    for key, (rejected, decided) in key_counts(walk).items():
        entry = stats["rule_keys"].setdefault(key, {"rejected": 0, "decided": 0})
        entry["rejected"] += rejected
        entry["decided"] += decided
    for kind in {d.kind for leaf in walk.leaves for d in leaf.rule_decisions}:
        stats["branch_points"].setdefault(kind, {"met": 0, "changed": 0})["met"] += 1
    for kind in changing_points(walk):
        stats["branch_points"][kind]["changed"] += 1


def _judge_one(ruleset, document, invariants, stats, findings, index, max_runs, reduce_seconds, found) -> None:
    """Judge the distinct scenario ``index`` (counted in ``stats``; its new findings appended to ``found``)."""
    document = {**document, "options": dict(stats["options"])}
    if not situation(document):
        stats["scenarios"]["not_situation"] += 1
        return
    _, scenario = prepare_scenario(document, f"bounded scenario {index}")
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False, max_runs=max_runs)
    stats["traces"] += walk.runs
    stats["unfinished"] += walk.unfinished
    if not walk.complete:
        stats["scenarios"]["too_large"] += 1
        return
    stats["scenarios"]["judged"] += 1
    _count_walk(stats, walk)
    for item in judge_walk(ruleset, document, walk, invariants, findings, max_runs=max_runs,
                           reduce_seconds=reduce_seconds, option_search=True):
        found.append(_found(item, index))


def exhaust(ruleset: Ruleset, edition: str, invariants: tuple[Invariant, ...], bound: Bound, *,
            options: dict[str, Any] | None = None, shard: tuple[int, int] = (1, 1),
            max_runs: int = DEFAULT_MAX_RUNS, time_limit: float | None = None, reduce_seconds: float = 8.0
            ) -> tuple[dict[str, Any], list[Found], LintFindings]:
    """Judge every scenario of ``ruleset`` within ``bound`` (the distinct ones of shard ``shard`` = (I, N)) under
    ``invariants`` and ``options``. Returns (the statistics document, the findings in the order found, the
    :class:`LintFindings` holding them for the editor report). With ``time_limit`` (seconds), no scenario is started
    after it has passed: the document then says ``exhausted: false`` and how far the walk got (``stopped``).
    Raises KeyError for a ruleset without a builder, InvariantCrashed for an invariant whose check raises."""
    started = time.perf_counter()
    stats = _new_stats(ruleset, edition, options or {}, bound, shard, max_runs, (inv.key for inv in invariants))
    findings = LintFindings(met=dict.fromkeys(ruleset.branch_points, 0))
    found: list[Found] = []
    walk = Walk()
    index = -1
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        for index, document in enumerate(bounded_scenarios(ruleset.name, edition, bound, walk, deadline)):
            if time_limit is not None and time.perf_counter() - started > time_limit:
                stats["exhausted"] = False
                stats["stopped"] = {"reason": "time-limit", "seconds": time_limit, "at_scenario": index}
                break
            if index % shard[1] != shard[0] - 1:
                stats["scenarios"]["other_shards"] += 1
                continue
            _judge_one(ruleset, document, invariants, stats, findings, index, max_runs, reduce_seconds, found)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: what was judged so far is kept and reported, then the caller
        stats["exhausted"] = False  # re-raises (exit 130 or 143)
        stats["stopped"] = {"reason": "interrupted", "seconds": round(time.perf_counter() - started, 3),
                            "at_scenario": max(index, 0)}
    if walk.stopped and not stats["stopped"]:  # the walk itself ran out of time between two scenarios
        stats["exhausted"] = False
        stats["stopped"] = {"reason": "time-limit", "seconds": time_limit, "at_scenario": index + 1}
    stats["walk"] = {"builds": walk.builds, "outside": dict(sorted(walk.outside.items())),
                     "renamings": walk.duplicates, "distinct": walk.scenarios}
    stats["findings"] = [f.as_json() for f in found]
    stats["seconds"] = round(time.perf_counter() - started, 3)
    return stats, found, findings


# -- Merging shards ---------------------------------------------------------------------------------------------------

SAME = ("format", "ruleset", "edition", "options", "bound", "max_runs")
SUMMED = ("traces", "unfinished", "outcomes", "legal_outcomes")


def merge(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of the union of the shards ``documents`` (each a statistics document of one ``--shard I/N``,
    or a merge of some): counts added, the walk (the same in every shard walking the whole bound) its largest,
    ``exhausted`` only when every shard exhausted and the parts are 1..N, each finding at its first scenario.
    Raises ValueError naming what differs (ruleset, bound, ...; N), a part given twice, or no document."""
    if not documents:
        raise ValueError("merge-stats needs at least one statistics document")
    first = documents[0]
    for doc in documents[1:]:
        for name in SAME + (("shard", "of"),):
            mine, theirs = (first[name[0]][name[1]], doc[name[0]][name[1]]) if isinstance(name, tuple) \
                else (first[name], doc[name])
            if mine != theirs:
                label = "shard count N" if isinstance(name, tuple) else name
                raise ValueError(f"merge-stats: the documents differ in {label} ({mine!r} and {theirs!r})")
    parts = [p for doc in documents for p in doc["shard"]["parts"]]
    if len(set(parts)) != len(parts):
        raise ValueError(f"merge-stats: shard part(s) {sorted({p for p in parts if parts.count(p) > 1})} given twice")
    beyond = sorted(p for p in parts if not 1 <= p <= first["shard"]["of"])
    if beyond:
        raise ValueError(f"merge-stats: shard part(s) {beyond} of {first['shard']['of']} do not exist")
    walks = {json.dumps(doc["walk"], sort_keys=True) for doc in documents if not doc["stopped"]}
    if len(walks) > 1:  # every shard walks the whole bound: the same walk, or the documents are of different code
        raise ValueError("merge-stats: the shards walked the bound differently (builds, distinct scenarios): "
                         "they were not made by the same version on the same bound")
    out = {name: first[name] for name in SAME}
    out["shard"] = {"parts": sorted(parts), "of": first["shard"]["of"]}
    out["walk"] = max((doc["walk"] for doc in documents), key=lambda w: (w["builds"], w["distinct"]))
    out["scenarios"] = {k: sum(doc["scenarios"][k] for doc in documents) for k in first["scenarios"]}
    out["scenarios"]["other_shards"] = out["walk"]["distinct"] - sum(
        out["scenarios"][k] for k in ("judged", "not_situation", "too_large"))
    out.update({name: sum(doc[name] for doc in documents) for name in SUMMED})
    out["seconds"] = round(sum(doc["seconds"] for doc in documents), 3)
    out["exhausted"] = all(doc["exhausted"] for doc in documents) and sorted(parts) == list(
        range(1, first["shard"]["of"] + 1))
    stops = [doc["stopped"] for doc in documents if doc["stopped"]]
    out["stopped"] = stops[0] if stops else None
    for table in ("rule_keys", "branch_points"):
        merged: dict[str, dict[str, int]] = {}
        for doc in documents:
            for key, counts in doc[table].items():
                entry = merged.setdefault(key, dict.fromkeys(counts, 0))
                for name, n in counts.items():
                    entry[name] += n
        out[table] = merged
    firsts: dict[tuple[str, str], dict[str, Any]] = {}
    for item in sorted((f for doc in documents for f in doc["findings"]), key=lambda f: f["scenario"]):
        firsts.setdefault((item["kind"], item["key"]), item)
    out["findings"] = sorted(firsts.values(), key=lambda f: (f["scenario"], f["kind"], f["key"]))
    return out


def comparable(stats: dict[str, Any]) -> dict[str, Any]:
    """``stats`` without what differs between equal runs (seconds, the shard parts, the findings' rendered text and
    the order of findings found at one scenario): what a merge of shards must share with the single run."""
    out = {k: v for k, v in stats.items() if k not in ("seconds", "shard", "findings")}
    out["findings"] = sorted((f["scenario"], f["kind"], f["key"]) for f in stats["findings"])
    return out


# -- In words -------------------------------------------------------------------------------------------------------

def within(stats: dict[str, Any]) -> str:
    """The coverage of a run for its "none found within ..." line: the bound, the distinct scenarios judged and
    whether the bound was exhausted."""
    bound = ",".join(f"{k}={v}" for k, v in stats["bound"].items())
    shard = "" if stats["shard"]["parts"] == list(range(1, stats["shard"]["of"] + 1)) else \
        f", shard {'+'.join(map(str, stats['shard']['parts']))}/{stats['shard']['of']}"
    state = "exhausted" if stats["exhausted"] else f"NOT exhausted: {_stopped_by(stats)}"
    return f"bound {bound}{shard} ({stats['scenarios']['judged']} scenarios, {state})"


def _stopped_by(stats: dict[str, Any]) -> str:
    missing = sorted(set(range(1, stats["shard"]["of"] + 1)) - set(stats["shard"]["parts"]))
    if not stats.get("stopped") and missing:
        return f"shard part(s) {', '.join(map(str, missing))} of {stats['shard']['of']} missing"
    reason = (stats.get("stopped") or {}).get("reason", "time-limit")
    return "interrupted" if reason == "interrupted" else "stopped by --time-limit"


def _listing(pairs: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{name} {value}" for name, value in pairs) or "none"


def lines(stats: dict[str, Any]) -> list[str]:
    """The statistics in words, as TLC prints them: what was generated, distinct, judged and explored, the time
    and whether the bound was exhausted (else how far it got); per rule key the scenarios it decided in; the vacuous
    and redundant keys; per branch point the scenarios its alternatives changed the outcome in."""
    walk, counts = stats["walk"], stats["scenarios"]
    outside = _listing(sorted((k, str(v)) for k, v in walk["outside"].items()))
    out = [f"{walk['builds']} scenarios generated, {walk['distinct']} distinct after symmetry reduction "
           f"({walk['renamings']} renamings of an earlier one; beyond the bound: {outside})",
           f"{counts['judged']} judged ({counts['not_situation']} not an editor's situation, {counts['too_large']} "
           f"too large for --max-runs {stats['max_runs']}, {counts['other_shards']} in other shards), "
           f"{stats['traces']} traces explored, {stats['outcomes']} distinct outcomes ({stats['legal_outcomes']} "
           f"legal), {stats['seconds']:.1f} s: " + ("exhausted" if stats["exhausted"] else "NOT exhausted")]
    if stats["stopped"]:
        why = ("interrupted after" if stats["stopped"]["reason"] == "interrupted" else "stopped by --time-limit")
        out.append(f"{why} {stats['stopped']['seconds']:g} s at distinct scenario "
                   f"{stats['stopped']['at_scenario']} of the walk (the scenarios after it were not judged)")
    keys = stats["rule_keys"]
    out.append("rule keys, scenarios where the key alone ruled out a candidate trace / where it ruled out any: "
               + _listing((k, f"{v['decided']}/{v['rejected']}") for k, v in keys.items() if v["rejected"]))
    vacuous = [k for k, v in keys.items() if not v["rejected"]]
    redundant = [k for k, v in keys.items() if v["rejected"] and not v["decided"]]
    out.append(f"vacuous within the bound (never ruled out a trace): {', '.join(vacuous) or 'none'}")
    out.append(f"redundant within the bound (ruled out traces only with another key): {', '.join(redundant) or 'none'}")
    points = stats["branch_points"]
    # An option's other values are a point's alternatives too, but they are searched once per option (an open
    # reading), not in every scenario: say so beside the count, which is of the walk at the options given.
    opened = {f["branch_point"]: f["key"] for f in stats["findings"] if "branch_point" in f}
    out.append("branch points, scenarios where its alternatives changed the outcome / meeting it (at the options "
               "given): " + _listing((p, f"{v['changed']}/{v['met']}" + (
                   f" (and option {opened[p]}'s values: an open reading)" if p in opened else ""))
                   for p, v in points.items() if v["met"]))
    never = [p for p, v in points.items() if not v["met"]]
    out.append(f"branch points never met within the bound: {', '.join(never) or 'none'}")
    return out


def verdict(stats: dict[str, Any]) -> tuple[bool, str]:
    """(whether anything was found that fails lint-rules: a contradiction or an ambiguity no option names, the
    closing line)."""
    kinds = [f["kind"] for f in stats["findings"]]
    failing = "contradiction" in kinds or "ambiguity" in kinds
    if failing:
        return True, (f"{kinds.count('contradiction')} contradiction(s), {kinds.count('ambiguity')} new ambiguity(ies), "
                      f"{kinds.count('open-reading')} open reading(s) named by an option, within {within(stats)}")
    if kinds:
        return False, (f"{len(kinds)} open reading(s), each named by an option; no contradiction, no new ambiguity "
                       f"(none found within {within(stats)})")
    return False, f"no contradiction, no ambiguity (none found within {within(stats)})"
