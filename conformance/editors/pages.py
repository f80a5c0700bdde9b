"""An editor report rendered: for the terminal (:func:`console`), as Markdown (:func:`markdown`, timelines as SVG
files beside it) and as one self-contained HTML page (:func:`html`, timelines inline SVG drawn by
:func:`timeline_svg`: a few rectangles and texts, no library), and written where the command line asks
(:func:`write`, the JSON validated first). Everything here reads the report document
(``schemas/editor-report.schema.json``) that :mod:`conformance.editors.report` builds, and nothing else."""

from __future__ import annotations

import html as _html
import json
import sys
from pathlib import Path
from typing import Any

from conformance.documents.json_io import write_atomically
from conformance.reports.text import two_columns
from conformance.editors.words import Describer


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


def point_line(finding: dict[str, Any]) -> str:
    """An ambiguity's branch point and whether an option names it, in one line."""
    named = finding.get("named_by")
    return (f"branch point {finding['branch_point']}: "
            + (f"named by option {named['option']} (default {json.dumps(named['default'])})" if named
               else "new: no option names it"))


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
    out = [f"  {x} | {y}" for x, y in two_columns(a["label"], b["label"], width)]
    for n in range(max(len(a["lines"]), len(b["lines"]))):
        left = a["lines"][n] if n < len(a["lines"]) else ""
        right = b["lines"][n] if n < len(b["lines"]) else ""
        mark = " " if left == right else "*"
        out += [f"{mark if not row else ' '} {x} | {y}" for row, (x, y) in enumerate(two_columns(left, right, width))]
    return "\n".join(out)


def markdown(doc: dict[str, Any], pictures: Path | None = None) -> str:
    """The report as Markdown; with ``pictures`` (a folder), each timeline is written there as an SVG file and
    linked (relative to the folder's parent, where the Markdown file goes)."""
    out = [f"# {doc['command']}: {doc['title']}", "", *[f"* {line}" for line in _facts(doc)], ""]
    out += ["**How far the search went:**", ""] + [f"> {_md(line)}" for line in doc["summary"]] + [""]
    if _nothing(doc):
        out += ["## Nothing found", "", _md(_nothing(doc)), ""]
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
                    write_atomically(pictures / name, timeline_svg(o["timeline"], o["label"]))
                    out.append(f"\n![timeline of {_md(o['label'])}]({pictures.name}/{name})\n")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _nothing(doc: dict[str, Any]) -> str | None:
    """The "Nothing found" sentence of a report that found nothing: "None found within <its coverage>." (None when
    it found something; for ``rules --matrix``, a key without a fixture or unexercised in the run)."""
    coverage = doc.get("coverage")
    if doc["findings"] or (doc.get("matrix") is not None and (coverage or {}).get("scenarios", {}).get("gaps", 1)):
        return None
    if coverage is None:  # a report of an earlier version
        return "No finding within the search above (a sample is not every scenario)."
    return f"None found within {coverage['within']}."


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
    if _nothing(doc):
        out.append(f'<section class="nothing"><h2>Nothing found</h2><p>{e(_nothing(doc))}</p></section>')
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


def write(doc: dict[str, Any], args, json_option: str = "--report-json") -> list[str]:
    """Write the report files asked for (``--report-json``, ``--report-markdown``, ``--report-html``), the JSON
    validated against ``schemas/editor-report.schema.json`` first; returns the lines saying what was written. A
    report that cannot be written is said on stderr naming its option as the user typed it: ``json_option`` for the
    JSON report (``diff --json`` writes the same report)."""
    from conformance.documents.json_io import dump_json, validate
    from conformance.running.recorder import write_somewhere

    said = []
    if getattr(args, "report_json", None):
        text = dump_json(validate(doc, "editor-report", "the editor report"))
        said += _written(write_somewhere(args.report_json, text, "JSON report", json_option))
    if getattr(args, "report_markdown", None):
        target = Path(args.report_markdown)
        try:
            text = markdown(doc, target.parent / f"{target.stem}-timelines")
        except OSError as exc:  # a timeline picture that cannot be written (a full disk): the report without them
            print(f"trigger-conformance: error: --report-markdown: a timeline picture could not be written: "
                  f"{exc.filename}: {exc.strerror or exc}; the report is written without timelines", file=sys.stderr)
            text = markdown(doc)
        said += _written(write_somewhere(str(target), text, "Markdown report", "--report-markdown"))
    if getattr(args, "report_html", None):
        said += _written(write_somewhere(args.report_html, html(doc), "HTML report", "--report-html"))
    return said


def _written(went: str | None) -> list[str]:
    """What :func:`write` says of one report: where it went (write_somewhere said what went wrong, if anything)."""
    return [f"report written to {went}"] if went else []


def add_options(parser) -> None:
    """The report options of ``lint-rules``, ``diff`` and ``rules --matrix`` (named as ``run``'s)."""
    parser.add_argument("--report-json", metavar="FILE",
                        help="write the findings as JSON here (schemas/editor-report.schema.json)")
    parser.add_argument("--report-markdown", metavar="FILE",
                        help="write the findings as Markdown here (timelines as SVG files in FILE's folder, "
                             "STEM-timelines/)")
    parser.add_argument("--report-html", metavar="FILE",
                        help="write the findings as one self-contained HTML page here (timelines inline SVG)")
