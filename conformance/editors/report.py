"""Reports a rules editor can read (issue 21, item 4): ``lint-rules``, ``diff`` and ``rules --matrix`` as JSON,
Markdown and HTML, as ``run`` writes its report.

One document (``schemas/editor-report.schema.json``, format ``trigger-conformance/editor-report/1``) holds every
finding of a command; the Markdown and HTML are rendered from it. Each finding has:

* ``sentences``: the rule keys it concerns, each with its rule number and the index of the sentence the key was
  encoded from (``Ruleset.sentences``); with ``--rules-text FILE`` the sentence itself, read with the ruleset's own
  reader (:func:`reference_engine.kernel.registry.paragraphs`, :func:`~reference_engine.kernel.ruletext.split_sentences`),
  and whether it changed since the key was encoded. The rule text is not shipped with the tool.
* ``scenario``: the minimal scenario in words (:class:`conformance.editors.words.Describer`) and as a document;
* ``outcomes``: the competing outcomes side by side, each in words, with the keys that reject it and a
  ``timeline`` of its queue or stack (when each trigger entered it, resolved or was removed), drawn as an SVG
  picture (:mod:`conformance.editors.pages`, which renders the document as text, Markdown and HTML).

The traces behind the outcomes are found again by walking the minimal scenario
(:func:`conformance.editors.enumeration.enumerate_traces`, unpruned, so a rejected outcome keeps the keys rejecting
it).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from conformance.editors.enumeration import Leaf, enumerate_traces, signature
from conformance.editors.analysis import explaining_leaves
from conformance.editors.words import Describer
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import paragraphs
from reference_engine.kernel.ruleset import Ruleset
from reference_engine.kernel.sentence_alignment import align

FORMAT = "trigger-conformance/editor-report/1"
WALK_RUNS = 3000  # plays to find a minimal scenario's traces again (a minimal scenario has a few dozen)


# -- Sentences ---------------------------------------------------------------------------------------------------

class Sentences:
    """The sentences the rule keys of ``ruleset`` were encoded from, with the editor's ``text`` if given."""

    def __init__(self, ruleset: Ruleset, text: str | None = None):
        self.ruleset = ruleset
        self.found = paragraphs(ruleset.name, text) if text is not None else None
        self.invariants = {inv.key: inv for inv in ruleset.invariants}
        self._alignment: dict[str, dict[int, Any]] = {}

    def for_keys(self, keys: Iterable[str], edition: str) -> list[dict[str, Any]]:
        out = []
        for key in dict.fromkeys(keys):
            inv = self.invariants.get(key)
            numbers = [] if inv is None else [inv.rule_numbers.get(edition) or next(iter(inv.rule_numbers.values()))]
            if not numbers:
                out.append({"key": key, "rule": None, "edition": edition, "sentence": None, "text": None,
                            "status": "a key of a draft: no sentence recorded"})
            for number in numbers:
                out += self.at(number, edition, key)
        return out

    def at(self, number: str, edition: str, key: str | None = None) -> list[dict[str, Any]]:
        """The sentences of rule ``number`` recorded for ``key`` (every recorded sentence of it without a key)."""
        recorded = list(self.ruleset.sentences.get(number, ()))
        indexes = [i for i, (_, keys) in enumerate(recorded) if key is None or key in keys] or \
            ([None] if key is not None or not recorded else list(range(len(recorded))))
        aligned = self._aligned(number)
        out = []
        for i in indexes:
            entry = {"key": key, "rule": number, "edition": edition, "sentence": None if i is None else i + 1,
                     "text": None, "status": "the rule text was not given (--rules-text FILE shows the sentence)"}
            if self.found is not None:
                if number not in self.found and (i is None or aligned.get(i + 1) is None):
                    entry["status"] = "the given text has no rule " + number
                elif i is None:
                    entry.update(text=self.found[number], status="the whole rule (no sentence recorded for this key)")
                else:
                    entry.update(_status(aligned.get(i + 1)))
            out.append(entry)
        return out

    def _aligned(self, number: str) -> dict[int, Any]:
        """Recorded sentence index (1-based) of rule ``number`` -> what became of it in the given text."""
        if self.found is None:
            return {}
        if number not in self._alignment:
            self._alignment[number] = {a.index: a for a in align(self.ruleset.sentences, self.found)
                                       if a.number == number and a.what != "new"}
        return self._alignment[number]


def _status(change) -> dict[str, Any]:
    """A recorded sentence's text in the given draft and what became of it, for a report's sentence entry."""
    if change is None:
        return {"status": "not in the given text"}
    if change.what == "unchanged":
        return {"text": change.text, "status": "as encoded"}
    if change.what == "moved":
        return {"text": change.text, "status": f"as encoded, {change.describe().split(' ', 4)[-1]}"}
    if change.what == "removed":
        return {"status": "REMOVED in the given text: its keys no longer hold as encoded"}
    return {"text": change.text, "status": f"CHANGED ({change.describe()}) since the key was encoded: re-read "
            "the key"}


def option_rules(ruleset: Ruleset, option: str) -> list[str]:
    """The rule numbers an option stands for (its ``stands_for`` words name them)."""
    found = next((o for o in ruleset.options if o.name == option), None)
    return re.findall(r"\d+(?:\.\d+)+[a-z]?|[A-Z]{2}\.\d+", found.stands_for) if found else []


# -- Timelines -----------------------------------------------------------------------------------------------------

WAITING_KINDS = ("enqueue", "stack_push")


def timeline(trace: dict[str, Any], words: Describer) -> dict[str, Any]:
    """The queue or stack over a trace: each trigger instance's lane (when it arose, when it entered a queue or the
    stack, when it resolved or was removed), the events between, on a time axis counting only those moments."""
    names = words.trace_names(trace)
    lanes: dict[str, dict[str, Any]] = {}
    events = []
    t = 0
    for entry in trace.get("entries", ()):
        kind = entry.get("kind")
        trigger = entry.get("trigger") or (entry.get("id") if kind in ("trigger", "activation_begin") else None)
        if kind == "event":
            t += 1
            events.append({"at": t, "what": names.get(entry["id"], "an event").removeprefix("the event ").strip("“”")})
        elif kind in ("trigger", "activation_begin"):
            t += 1
            lanes.setdefault(trigger, {"trigger": names.get(trigger, "a trigger"), "arose": t, "waiting": None,
                                       "label": _label(names.get(trigger, "a trigger"), lanes),
                                       "where": None, "resolving": None, "done": None, "removed": None})
        elif kind in WAITING_KINDS + ("resolve_begin", "resolve_end", "removed", "activation_end") and trigger in lanes:
            t += 1
            lane = lanes[trigger]
            if kind == "enqueue":
                lane["waiting"] = t
                lane["where"] = ("front of " if entry.get("placement") == "front" else "") + (
                    "the Trigger Queue" if entry.get("queue") == "main" else names.get(entry.get("queue"), "a queue"))
            elif kind == "stack_push":
                lane["waiting"], lane["where"] = t, "the stack"
            elif kind in ("resolve_begin",):
                lane["resolving"] = t
            elif kind in ("resolve_end", "activation_end"):
                lane["done"] = t
            elif kind == "removed":
                lane["removed"], lane["done"] = entry.get("reason", "removed"), t
    for lane in lanes.values():
        lane["done"] = lane["done"] or t + 1
    return {"length": t + 1, "events": events, "lanes": list(lanes.values())}


def _label(name: str, lanes: dict[str, dict[str, Any]]) -> str:
    """A lane's short label: the ability's name, numbered when the ability has several instances."""
    short = name.split(" (")[0]
    same = sum(1 for lane in lanes.values() if lane["label"].split(" #")[0] == short)
    return f"{short} #{same + 1}" if same else short


# -- Findings -------------------------------------------------------------------------------------------------------

def _walk(scenario: dict[str, Any], invariants) -> list[Leaf]:
    walk = enumerate_traces(scenario, invariants, player_choices="scenario", prune=False, max_runs=WALK_RUNS)
    if not walk.complete:  # too large unpruned: the legal traces only
        walk = enumerate_traces(scenario, invariants, player_choices="scenario", max_runs=WALK_RUNS)
    return walk.leaves


def _outcome(label: str, lines: tuple[str, ...], leaves: list[Leaf], words: Describer,
             rejected: dict[str, list[str]] | None = None) -> dict[str, Any]:
    leaf = next((leaf for leaf in leaves if signature(leaf.trace, observable=True) == tuple(lines)), None)
    trace = leaf.trace if leaf else None
    if rejected is None:
        rejected = leaf.violations if leaf else {}
    return {"label": label, "lines": [words.outcome_line(line) for line in lines],
            "rejected_by": [{"key": k, "message": words.ids(m[0], trace)} for k, m in rejected.items() if m],
            "timeline": timeline(trace, words) if trace else None}


def _scenario(scenario: dict[str, Any], ruleset: Ruleset) -> tuple[Describer, dict[str, Any]]:
    words = Describer(scenario)
    return words, {"words": words.scenario_lines(ruleset), "document": scenario}


def contradiction(found, ruleset: Ruleset, edition: str, invariants, sentences: Sentences) -> dict[str, Any]:
    words, scenario = _scenario(found.scenario, ruleset)
    leaves = _walk(found.scenario, invariants)
    outcomes: dict[tuple[str, ...], list[Leaf]] = {}
    for leaf in leaves:  # the candidates by what a player sees; each way of reaching one is rejected by a core key
        if any(k in leaf.violations for k in found.core):
            outcomes.setdefault(signature(leaf.trace, observable=True), []).append(leaf)
    # each candidate is explained by one trace of it, with that trace's own reasons and timeline
    shown = explaining_leaves(outcomes.values(), found.core)
    return {"kind": "contradiction",
            "title": f"These rule keys cannot all hold: {', '.join(found.core)} (drop any one and some outcome "
                     f"satisfies the rest; {found.explored} traces explored)",
            "sentences": sentences.for_keys(found.core, edition), "scenario": scenario,
            "outcomes": [_outcome(f"candidate {n}", lines, [leaf], words, leaf.violations)
                         for n, (lines, leaf) in enumerate(zip(outcomes, shown), 1)]}


def ambiguity(found, ruleset: Ruleset, edition: str, invariants, sentences: Sentences,
              concerned: Iterable[str] = ()) -> dict[str, Any]:
    words, scenario = _scenario(found.scenario, ruleset)
    point = ruleset.branch_points.get(found.kind)
    named = _named_by(ruleset, point)
    read = [s for number in (point.sentences if point else ()) for s in sentences.at(number, edition)]
    if getattr(found, "option", None) is not None:
        leaves = []
        for value in found.values:
            variant = {**found.scenario, "options": {**found.scenario["options"], found.option: value}}
            leaves += [leaf for leaf in _walk(prepare_scenario(variant, "the minimal scenario")[1], invariants)
                       if leaf.legal]
        title = (f"Open reading at branch point {found.kind}, named by option {found.option} "
                 f"(default {named['default']}): {point.question if point else found.label}; its readings "
                 f"{' and '.join(json.dumps(v) for v in found.values)} each satisfy every rule key and give "
                 "different outcomes")
        return {"kind": "ambiguity", "title": title, "branch_point": found.kind, "named_by": named,
                "sentences": read, "scenario": scenario,
                "outcomes": [_outcome(f"{found.option} = {json.dumps(v)}", lines, leaves, words)
                             for v, lines in zip(found.values, found.traces)]}
    leaves = [leaf for leaf in _walk(found.scenario, invariants) if leaf.legal]
    if found.kind.startswith("reading:"):
        option = found.kind.split(":", 1)[1]
        title = (f"The keys do not settle option {option}: more than one of its readings "
                 "satisfies every rule key")
        cited = [s for number in option_rules(ruleset, option) for s in sentences.at(number, edition)]
    else:
        title = (f"The rules leave open the {found.kind} ({words.ids(found.label)}): "
                 f"{len(found.traces)} outcomes satisfy every rule key with the same player choices"
                 + (f"; {point.question}" if point else "")
                 + ("" if named else "; new: no option names this branch point"))
        cited = read
    return {"kind": "ambiguity", "title": title, "branch_point": found.kind, "named_by": named,
            "sentences": sentences.for_keys(concerned, edition) + cited, "scenario": scenario,
            "outcomes": [_outcome("the first reading" if n == 0 else f"another reading ({n + 1})", lines, leaves,
                                  words) for n, lines in enumerate(found.traces)]}


def _named_by(ruleset: Ruleset, point) -> dict[str, Any] | None:
    """The option naming a branch point, with its default (None: no option names it, a new open reading)."""
    if point is None or point.option is None:
        return None
    return {"option": point.option,
            "default": next((o.default for o in ruleset.options if o.name == point.option), None)}


def difference(found, ruleset: Ruleset, sides, sentences: Sentences) -> dict[str, Any]:
    words, scenario = _scenario(found.scenario, ruleset)
    (a, left), (b, right) = found.left, found.right
    walks = []
    for side in sides:
        variant = {**found.scenario, "edition": side.edition, "options": {**found.scenario.get("options", {}),
                                                                          **side.options}}
        _, prepared = prepare_scenario(variant, f"the scenario under {side.name}")
        walks.append(_walk(prepared, side.invariants))
    only_left, only_right = sorted(left - right), sorted(right - left)
    pick_left = only_left[0] if only_left else sorted(left)[0]
    pick_right = only_right[0] if only_right else sorted(right)[0]
    outcomes, keys = [], []
    for name, lines, mine, other, side in ((a, pick_left, walks[0], walks[1], sides[0]),
                                          (b, pick_right, walks[1], walks[0], sides[1])):
        allowed = left if name == a else right
        label = f"{name} only" if only_left and only_right else f"{name}: " + (
            "required" if len(allowed) == 1 else f"one of {len(allowed)} allowed")
        entry = _outcome(label, lines, mine, words)
        # what the other side says of this outcome: the keys rejecting it there
        there = next((leaf for leaf in other if signature(leaf.trace, observable=True) == tuple(lines)), None)
        entry["rejected_by"] = [{"key": k, "message": words.ids(m[0], there.trace), "side": sides[1 - sides.index(side)].name}
                                for k, m in (there.violations.items() if there else ()) if m]
        keys += [(r["key"], sides[1 - sides.index(side)].edition) for r in entry["rejected_by"]]
        outcomes.append(entry)
    cited = [s for key, edition in dict.fromkeys(keys) for s in sentences.for_keys([key], edition)]
    return {"kind": "difference", "title": f"The required outcomes differ between {a} and {b}",
            "sentences": cited, "scenario": scenario, "outcomes": outcomes}


def problem(text: str, kind: str, ruleset: Ruleset, edition: str, sentences: Sentences) -> dict[str, Any]:
    """A lint problem or a text note (one line of :func:`conformance.editors.matrix.lint_text` or
    :func:`~conformance.editors.matrix.text_findings`), with the sentence it names when it names one."""
    cited: list[dict[str, Any]] = []
    head = text.split(":", 1)[0]
    where = re.search(r"sentence (\d+) of (\S+?)[,;:)]?(?:\s|$)", text)
    if where:
        number, index = where.group(2), int(where.group(1))
        cited = [s for s in sentences.at(number, edition) if s["sentence"] == index] or sentences.at(number, edition)
    elif head in sentences.invariants:
        cited = sentences.for_keys([head], edition)
    elif re.fullmatch(r"\d+(?:\.\d+)*[a-z]?|[A-Z]{2}\.\d+", head):
        cited = sentences.at(head, edition)
    return {"kind": kind, "title": text, "sentences": cited, "scenario": None, "outcomes": []}


def lint_findings(ruleset: Ruleset, edition: str, invariants, text: str | None, problems: list[str],
                  notes: list[str], found, concerned: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Every finding of ``lint-rules`` (``found``: :class:`conformance.editors.analysis.LintFindings`), in the
    report's form: the lint problems, the text notes, then each contradiction and ambiguity. ``concerned``: the keys
    the editor dropped or drafted (--without, --with), whose sentences an ambiguity concerns."""
    sentences = Sentences(ruleset, text)
    return ([problem(p, "lint", ruleset, edition, sentences) for p in problems]
            + [problem(n, "text", ruleset, edition, sentences) for n in notes]
            + [contradiction(c, ruleset, edition, invariants, sentences) for c in found.contradictions]
            + [ambiguity(a, ruleset, edition, invariants, sentences, concerned) for a in found.ambiguities])


def diff_findings(ruleset: Ruleset, sides, found, text: str | None = None) -> list[dict[str, Any]]:
    """Every difference ``diff`` found between its two ``sides``, in the report's form."""
    sentences = Sentences(ruleset, text)
    return [difference(d, ruleset, sides, sentences) for d in found]


def coverage(kind: str, within: str, counts: dict[str, int], *, bound: dict[str, int] | None = None,
             exhausted: bool | None = None) -> dict[str, Any]:
    """A report's ``coverage``: what the command looked at, for its "none found within ..." line. ``kind``: "sample"
    (generated scenarios), "given" (``--scenario`` files), "bound" (every scenario within ``bound``; ``exhausted``
    says whether a time limit stopped it) or "table" (``rules --matrix``: the keys, fixtures and run report);
    ``within``: the words after "none found within"; ``counts``: what was counted (scenarios drawn, compared, ...)."""
    return {"kind": kind, "within": within, "bound": bound, "scenarios": dict(counts), "exhausted": exhausted,
            "seconds": None, "stopped": None}


def document(command: str, ruleset: Ruleset, editions: list[str], summary: list[str], findings: list[dict],
             *, options: dict[str, Any] | None = None, rules_text: str | None = None,
             matrix: list[dict[str, Any]] | None = None, coverage: dict[str, Any] | None = None) -> dict[str, Any]:
    """The editor report (``schemas/editor-report.schema.json``); ``coverage`` (:func:`coverage`) if given."""
    from conformance import __version__

    doc = {"format": FORMAT, "tool_version": __version__, "command": command, "ruleset": ruleset.name,
           "title": ruleset.title, "editions": editions, "options": options or {}, "rules_text": rules_text,
           "summary": summary, "findings": findings}
    if matrix is not None:
        doc["matrix"] = matrix
    if coverage is not None:
        doc["coverage"] = coverage
    return doc




