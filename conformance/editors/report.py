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
  picture by :func:`timeline_svg` (no library: a few rectangles and texts).

The traces behind the outcomes are found again by walking the minimal scenario
(:func:`conformance.editors.enumeration.enumerate_traces`, unpruned, so a rejected outcome keeps the keys rejecting
it). :func:`console` is the same finding as text for the terminal.
"""

from __future__ import annotations

import html as _html
import json
import re
from pathlib import Path
from typing import Any, Iterable

from conformance.editors.enumeration import Leaf, enumerate_traces, signature
from conformance.editors.words import Describer
from conformance.scenarios import prepare_scenario
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


def timeline_svg(line: dict[str, Any], title: str = "") -> str:
    """The timeline as an SVG picture: one row per trigger (pale while it waits, dark while it resolves, a cross
    where it was removed), numbered event marks along the top and their list below."""
    lanes, events = line["lanes"], line["events"]
    label_w = 16 + 7 * max([len(_short(lane["label"], 60)) for lane in lanes] + [24])  # 12 px text, about 7 px a letter
    step, row, top = 30, 26, 40
    listed = max([len(_short(event["what"], 110)) + 4 for event in events] + [0])
    width = max(label_w + step * max(line["length"], 2) + 300, 16 + 7 * listed)  # nothing cut at the right
    height = top + row * max(len(lanes), 1) + 24 + 16 * len(events)
    x = lambda t: label_w + step * t  # noqa: E731
    e = _html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{e(title or "timeline")}" '
             'font-family="system-ui, sans-serif" font-size="12">',
             f"<title>{e(title or 'timeline of the queue or stack')}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
             f'<text x="4" y="14" font-weight="bold">time →</text>']
    for n, event in enumerate(events, 1):
        parts.append(f'<line x1="{x(event["at"])}" y1="20" x2="{x(event["at"])}" y2="{top + row * len(lanes)}" '
                     'stroke="#bbbbbb" stroke-dasharray="2,3"/>')
        parts.append(f'<circle cx="{x(event["at"])}" cy="26" r="8" fill="#4a6fa5"><title>{e(event["what"])}</title>'
                     f'</circle><text x="{x(event["at"])}" y="30" text-anchor="middle" fill="#ffffff" '
                     f'font-size="11">{n}</text>')
    for n, lane in enumerate(lanes):
        y = top + row * n
        parts.append(f'<text x="4" y="{y + 17}">{e(_short(lane["label"], 60))}<title>{e(lane["trigger"])}</title>'
                     "</text>")
        resolving = lane["resolving"]
        end = resolving or lane["done"]
        parts.append(f'<rect class="waiting" x="{x(lane["arose"])}" y="{y + 5}" width="{max(x(end) - x(lane["arose"]), 3)}" '
                     f'height="16" rx="3" fill="#cfe0f5" stroke="#4a6fa5"><title>{e(lane["trigger"])} waits'
                     f'{" in " + e(lane["where"]) if lane["where"] else ""}</title></rect>')
        if lane["where"] and lane["waiting"]:  # where it waited, right of its lane
            parts.append(f'<text x="{x(lane["done"]) + 12}" y="{y + 17}" font-size="11" fill="#1d3557">'
                         f'{e(_short("waited in " + lane["where"], 40))}</text>')
        if resolving:
            parts.append(f'<rect class="resolving" x="{x(resolving)}" y="{y + 5}" '
                         f'width="{max(x(lane["done"]) - x(resolving), 6)}" height="16" rx="3" fill="#1d3557">'
                         f'<title>{e(lane["trigger"])} resolves</title></rect>')
        if lane["removed"]:
            cx = x(lane["done"])
            parts.append(f'<path class="removed" d="M{cx - 6},{y + 7} l12,12 m0,-12 l-12,12" stroke="#c0392b" '
                         f'stroke-width="3"><title>removed: {e(lane["removed"])}</title></path>')
    y = top + row * len(lanes) + 20
    for n, event in enumerate(events, 1):
        parts.append(f'<text x="4" y="{y + 16 * (n - 1)}" fill="#333333">{n}. {e(_short(event["what"], 110))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


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
    outcomes: dict[tuple[str, ...], dict[str, list[str]]] = {}
    for leaf in leaves:  # the candidates by what a player sees; each way of reaching one is rejected by a core key
        seen = signature(leaf.trace, observable=True)
        key = next((k for k in found.core if k in leaf.violations), None)
        if key is not None:
            outcomes.setdefault(seen, {}).setdefault(key, leaf.violations[key])
    return {"kind": "contradiction",
            "title": f"These rule keys cannot all hold: {', '.join(found.core)} (drop any one and some outcome "
                     f"satisfies the rest; {found.explored} traces explored)",
            "sentences": sentences.for_keys(found.core, edition), "scenario": scenario,
            "outcomes": [_outcome(f"candidate {n}", lines, leaves, words, rejected)
                         for n, (lines, rejected) in enumerate(outcomes.items(), 1)]}


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


def point_line(finding: dict[str, Any]) -> str:
    """An ambiguity's branch point and whether an option names it, in one line."""
    named = finding.get("named_by")
    return (f"branch point {finding['branch_point']}: "
            + (f"named by option {named['option']} (default {json.dumps(named['default'])})" if named
               else "new: no option names it"))


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


def document(command: str, ruleset: Ruleset, editions: list[str], summary: list[str], findings: list[dict],
             *, options: dict[str, Any] | None = None, rules_text: str | None = None,
             matrix: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    from conformance import __version__

    doc = {"format": FORMAT, "tool_version": __version__, "command": command, "ruleset": ruleset.name,
           "title": ruleset.title, "editions": editions, "options": options or {}, "rules_text": rules_text,
           "summary": summary, "findings": findings}
    if matrix is not None:
        doc["matrix"] = matrix
    return doc


# -- Console text ---------------------------------------------------------------------------------------------------

def console(finding: dict[str, Any]) -> str:
    """A finding as text for the terminal: its headline, the sentences, the scenario in words and the outcomes side
    by side (differing lines marked ``*``), with the keys rejecting each."""
    lines = [f"{finding['kind'].upper()}: {finding['title']}"]
    if finding.get("branch_point"):
        lines.append(f"  {point_line(finding)}")
    lines += ["  " + _sentence_line(s) for s in _grouped(finding["sentences"])]
    if finding["scenario"]:
        lines.append("minimal scenario:")
        lines += [f"  {line}" for line in finding["scenario"]["words"]]
    outcomes = finding["outcomes"]
    for start in range(0, len(outcomes), 2):
        pair = outcomes[start:start + 2]
        lines.append(_columns(pair))
        for o in pair:
            lines += [f"  {_rejection(o, r)}" for r in o["rejected_by"]]
    return "\n".join(lines)


def _grouped(sentences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sentences without their text, one per key and rule ("sentences 1, 2"); those with a text each alone."""
    grouped: dict[tuple, list[dict[str, Any]]] = {}
    for s in sentences:
        grouped.setdefault((s["key"], s["rule"], s["status"]) if not s["text"] else (id(s),), []).append(s)
    return [{**group[0], "sentence": ", ".join(str(s["sentence"]) for s in group if s["sentence"]) or None}
            for group in grouped.values()]


def _rejection(outcome: dict[str, Any], r: dict[str, Any]) -> str:
    """Who rejects an outcome, in words: under the other side of a diff, or among the keys of the run."""
    where = f"under {r['side']}, " if r.get("side") else ""
    return f"{outcome['label']}: {where}{r['key']} rejects it: {r['message']}"


def _sentence_line(s: dict[str, Any]) -> str:
    many = "s" if "," in str(s.get("sentence")) else ""
    where = f"{s['rule']}" + (f", sentence{many} {s['sentence']}" if s.get("sentence") else "") if s.get("rule") \
        else "no rule"
    who = f"{s['key']} " if s.get("key") else ""
    return f"{who}[{where}] " + (f"“{s['text']}” ({s['status']})" if s.get("text") else f"({s['status']})")


def _columns(pair: list[dict[str, Any]], width: int = 72) -> str:
    if len(pair) == 1:
        return "\n".join([f"  {pair[0]['label']}"] + [f"    {line}" for line in pair[0]["lines"]])
    (a, b) = pair
    out = [f"  {a['label'][:width]:<{width}} | {b['label'][:width]}"]
    for n in range(max(len(a["lines"]), len(b["lines"]))):
        left = a["lines"][n] if n < len(a["lines"]) else ""
        right = b["lines"][n] if n < len(b["lines"]) else ""
        out.append(f"{' ' if left == right else '*'} {left[:width]:<{width}} | {right[:width]}")
    return "\n".join(out)


# -- Markdown and HTML ---------------------------------------------------------------------------------------------

def markdown(doc: dict[str, Any], pictures: Path | None = None) -> str:
    """The report as Markdown; with ``pictures`` (a folder), each timeline is written there as an SVG file and
    linked (relative to the folder's parent, where the Markdown file goes)."""
    out = [f"# {doc['command']}: {doc['title']}", "", *[f"* {line}" for line in _facts(doc)], ""]
    out += ["**How far the search went:**", ""] + [f"> {_md(line)}" for line in doc["summary"]] + [""]
    if not doc["findings"] and doc.get("matrix") is None:
        out += ["## Nothing found", "", "No finding within the search above (a sample is not every scenario).", ""]
    if doc.get("matrix") is not None:
        out += ["| rule | sentences | what the key checks | key | fixtures | scenarios exercised (status) |",
                "| --- | --- | --- | --- | --- | --- |"]
        out += [f"| {_rule_words(r['rules'])} | {r['sentences']} | {_md(r['summary'])} | `{r['key']}` | {len(r['fixtures'])} | "
                f"{_run_cell(r)} |" for r in doc["matrix"]] + [""]
    for n, finding in enumerate(doc["findings"], 1):
        out += [f"## {n}. {finding['kind'].upper()}", "", _md(finding["title"]), ""]
        if finding.get("branch_point"):
            out += [_md(point_line(finding)), ""]
        for s in _grouped(finding["sentences"]):
            out.append(f"> **{s['key'] or ''} [{s['rule']}{', sentence(s) ' + str(s['sentence']) if s['sentence'] else ''}]**"
                       + (f" {_md(s['text'])} *({s['status']})*" if s["text"] else f" *({s['status']})*"))
            out.append(">")
        if finding["sentences"]:
            out[-1] = ""
        if finding["scenario"]:
            out += ["**Minimal scenario**", ""] + [f"* {_md(line)}" for line in finding["scenario"]["words"]] + [""]
        if finding["outcomes"]:
            out += _md_table(finding["outcomes"])
            for k, o in enumerate(finding["outcomes"], 1):
                for r in o["rejected_by"]:
                    out.append(f"* {_md(_rejection(o, r))}")
                if o["timeline"] and pictures is not None:
                    pictures.mkdir(parents=True, exist_ok=True)
                    name = f"finding-{n}-outcome-{k}.svg"
                    (pictures / name).write_text(timeline_svg(o["timeline"], o["label"]), "utf-8")
                    out.append(f"\n![timeline of {_md(o['label'])}]({pictures.name}/{name})\n")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _rule_words(rules: str) -> str:
    """``"603.3 (2026-02-27), 603.3 (2021-02-24)"`` as ``"603.3"`` when every edition numbers the rule alike."""
    numbers = {part.rsplit(" (", 1)[0] for part in rules.split(", ")}
    return numbers.pop() if len(numbers) == 1 else rules


def _run_cell(row: dict[str, Any]) -> str:
    return f"{row['exercised']} ({row['status']})" if row["exercised"] is not None else (row["status"] or "no report")


def _facts(doc: dict[str, Any]) -> list[str]:
    facts = [f"ruleset {doc['ruleset']}, edition(s) {', '.join(doc['editions'])}", f"tool {doc['tool_version']}"]
    if doc["options"]:
        facts.append("options: " + "; ".join(f"{k.replace('_', ' ')}: {Describer.value(v)}"
                                             for k, v in doc["options"].items()))
    if doc["rules_text"]:
        facts.append(f"rule text: {doc['rules_text']}")
    return facts


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_").replace("<", "&lt;")


def _md_table(outcomes: list[dict[str, Any]]) -> list[str]:
    rows = ["| | " + " | ".join(_md(o["label"]) for o in outcomes) + " |", "| --- |" + " --- |" * len(outcomes)]
    for n in range(max(len(o["lines"]) for o in outcomes)):
        cells = [o["lines"][n] if n < len(o["lines"]) else "" for o in outcomes]
        mark = "" if len(set(cells)) == 1 else "**≠**"
        rows.append(f"| {mark} | " + " | ".join(_md(c) for c in cells) + " |")
    return rows + [""]


CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:90em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-top:1px solid #ccc;padding-top:1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}
tr.differs td{background:#ffe0a3}tr.same td{background:#ffffff}
blockquote{border-left:4px solid #4a6fa5;margin:.5em 0;padding:.3em .8em;background:#f3f6fb}
.status{color:#555;font-style:italic}.changed{color:#b00020;font-weight:bold}
.outcomes{display:grid;grid-template-columns:1fr;gap:1em}.outcome{min-width:0}
.rejected{color:#8a1c1c}.kind{font-family:monospace;background:#eee;padding:0 .3em}
details{margin:.5em 0}pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em}
.timeline-box{overflow-x:auto;max-width:100%}
svg.timeline{display:block;margin:.3em 0;border:1px solid #ddd;max-width:none}
.summary{background:#fff8e1;border:2px solid #e0a800;border-radius:4px;padding:.2em 1em;margin:1em 0;
overflow-wrap:anywhere}.summary h2{border:0;padding:0;margin:.5em 0 .3em}.summary p{margin:.3em 0}"""


def html(doc: dict[str, Any]) -> str:
    """The report as one self-contained HTML page (no script, no external resource; the timelines inline SVG)."""
    e = _html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(doc['command'])}: {e(doc['ruleset'])}</title><style>{CSS}</style></head><body>",
           f"<h1>{e(doc['command'])}: {e(doc['title'])}</h1>", "<ul>"]
    out += [f"<li>{e(f)}</li>" for f in _facts(doc)] + ["</ul>", '<div class="summary"><h2>How far the search went'
                                                       "</h2>"] + [f"<p>{e(line)}</p>" for line in doc["summary"]]
    out.append("</div>")
    if not doc["findings"] and doc.get("matrix") is None:
        out.append('<section class="nothing"><h2>Nothing found</h2><p>No finding within the search above: what '
                   "was compared, the bound or sample, and the situations the compared scenarios reached and never "
                   "reached are listed there. A sample is not every scenario.</p></section>")
    if doc.get("matrix") is not None:
        out.append("<table class=\"matrix\"><tr><th>rule</th><th>sentences</th><th>what the key checks</th>"
                   "<th>key</th><th>fixtures</th><th>scenarios exercised (status)</th></tr>")
        out += [f"<tr><td>{e(_rule_words(r['rules']))}</td><td>{e(r['sentences'])}</td><td>{e(r['summary'])}</td>"
                f"<td title=\"{e(r['invariant'])}\"><code>{e(r['key'])}</code></td><td>{len(r['fixtures'])}</td>"
                f"<td>{e(_run_cell(r))}</td></tr>" for r in doc["matrix"]]
        out.append("</table>")
    for n, finding in enumerate(doc["findings"], 1):
        out.append(f'<section class="finding {e(finding["kind"])}" id="finding-{n}">')
        out.append(f'<h2>{n}. <span class="kind">{e(finding["kind"].upper())}</span> {e(finding["title"])}</h2>')
        if finding.get("branch_point"):
            out.append(f'<p class="branch-point">{e(point_line(finding))}</p>')
        for s in _grouped(finding["sentences"]):
            changed = " changed" if s["status"].startswith("CHANGED") else ""
            where = f"{s['rule']}" + (f", sentence{'s' if ',' in str(s['sentence']) else ''} {s['sentence']}"
                                      if s["sentence"] else "")
            out.append(f'<blockquote class="sentence"><b>{e(s["key"] or "")} [{e(where)}]</b> '
                       + (f"{e(s['text'])} " if s["text"] else "")
                       + f'<span class="status{changed}">({e(s["status"])})</span></blockquote>')
        if finding["scenario"]:
            out.append("<h3>Minimal scenario</h3><ul class=\"scenario\">")
            out += [f"<li>{e(line)}</li>" for line in finding["scenario"]["words"]] + ["</ul>"]
        if finding["outcomes"]:
            out += _html_outcomes(finding["outcomes"])
        if finding["scenario"]:
            out.append("<details><summary>the scenario as a document</summary><pre>"
                       + e(json.dumps(finding["scenario"]["document"], indent=2)) + "</pre></details>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_outcomes(outcomes: list[dict[str, Any]]) -> list[str]:
    e = _html.escape
    out = ["<h3>Competing outcomes</h3><table class=\"side-by-side\"><tr><th></th>"
           + "".join(f"<th>{e(o['label'])}</th>" for o in outcomes) + "</tr>"]
    for n in range(max(len(o["lines"]) for o in outcomes)):
        cells = [o["lines"][n] if n < len(o["lines"]) else "" for o in outcomes]
        differs = len(set(cells)) > 1
        out.append(f'<tr class="{"differs" if differs else "same"}"><td>{"≠" if differs else ""}</td>'
                   + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    out.append("</table><div class=\"outcomes\">")
    for o in outcomes:
        out.append(f'<div class="outcome"><h4>{e(o["label"])}</h4>')
        out += [f'<p class="rejected">{e("under " + r["side"] + ", ") if r.get("side") else ""}<code>'
                f'{e(r["key"])}</code> rejects it: {e(r["message"])}</p>' for r in o["rejected_by"]]
        if o["timeline"]:
            out.append('<div class="timeline-box">' + timeline_svg(o["timeline"], o["label"]) + "</div>")
        out.append("</div>")
    out.append("</div>")
    return out


# -- Writing ---------------------------------------------------------------------------------------------------------

def write(doc: dict[str, Any], args) -> list[str]:
    """Write the report files asked for (``--report-json``, ``--report-markdown``, ``--report-html``), the JSON
    validated against ``schemas/editor-report.schema.json`` first; returns the lines saying what was written."""
    from conformance.documents import validate, write_atomically, write_json

    said = []
    if getattr(args, "report_json", None):
        write_json(args.report_json, validate(doc, "editor-report", "the editor report"))
        said.append(f"report written to {args.report_json}")
    if getattr(args, "report_markdown", None):
        target = Path(args.report_markdown)
        write_atomically(target, markdown(doc, target.parent / f"{target.stem}-timelines"))
        said.append(f"report written to {target}")
    if getattr(args, "report_html", None):
        write_atomically(args.report_html, html(doc))
        said.append(f"report written to {args.report_html}")
    return said


def add_options(parser) -> None:
    """The report options of ``lint-rules``, ``diff`` and ``rules --matrix`` (named as ``run``'s)."""
    parser.add_argument("--report-json", metavar="FILE",
                        help="write the findings as JSON here (schemas/editor-report.schema.json)")
    parser.add_argument("--report-markdown", metavar="FILE",
                        help="write the findings as Markdown here (timelines as SVG files in FILE's folder, "
                             "STEM-timelines/)")
    parser.add_argument("--report-html", metavar="FILE",
                        help="write the findings as one self-contained HTML page here (timelines inline SVG)")
