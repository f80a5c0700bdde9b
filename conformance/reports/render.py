"""Reports people read, rendered from the run's JSON Lines stream (the source of truth).

The stream (``run --report-jsonl FILE``, or the pytest plugin's ``--trigger-report-jsonl FILE``) is one JSON
object per line, each with a ``record``:

* ``header``: tool version, engine, ruleset, edition, options, seed, max_examples, shard, time budget, the rule
  keys and fixtures this job checks;
* ``explored``: how many scenarios of the stream were played, and ``stopped`` (e.g. "time budget") if not all;
* ``rule`` / ``fixture`` / ``audit``: one verdict, the report entry of ``schemas/report.schema.json``, flushed to
  disk as soon as it is known;
* ``footer``: the summary counts and seconds; after an interrupt, ``interrupted`` and ``not_checked``.

An interrupted run leaves a stream without a footer (or with a last line cut short): :func:`load` reads every whole
line and marks the run interrupted. A ``--report-json`` report is accepted as well.

:func:`markdown`, :func:`html` (one self-contained file: no script, no external resource) and :func:`junit` render
it. Raises ConformanceError for a file that is neither.
"""

from __future__ import annotations

import html as _html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from reference_engine.kernel.errors import ConformanceError
from conformance.documents.fixture_files import canonical_entries
from conformance.reports.text import (
    EXPECTED, MARK, XFAIL, audit_block, audit_summary, describe_entry, describe_scenario, expected_apart,
    partial_sentence, shown, traceback_heading, verdict_counts,
)

MAX_STREAM_BYTES = 256 * 1024 * 1024  # a report of a very long nightly run, not gigabytes

STATUS_WORD = MARK  # one word per verdict, the console's (conformance/reports/text.py)
NOT_CHECKED = "not checked"


def load(path: str) -> dict[str, Any]:
    """The run in ``path`` as ``{"header", "rules", "fixtures", "audit", "footer", "interrupted", "not_checked"}``."""
    from conformance.documents.json_io import DocumentError, loads, read_bytes

    raw = read_bytes(path, limit=MAX_STREAM_BYTES)  # a regular file, bounded: never a FIFO or /dev/zero
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConformanceError(f"{path}: cannot read it: not UTF-8 text (byte {exc.start})") from None
    first = text.lstrip()[:1]
    if first == "{" and '"record"' not in text.split("\n", 1)[0]:
        from conformance.documents.json_io import read_json

        return from_report(read_json(path, "report"))
    header, footer, audit, stopped, explored = None, None, None, "", None
    rules: list[dict] = []
    fixtures: list[dict] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = loads(line, f"{path}: line {number}")  # bounded depth, integers and strings
        except DocumentError:
            if number == len(text.splitlines()) and line.startswith('{"record"') and not line.rstrip().endswith("}"):
                break  # the last line, cut short by an interrupt
            raise
        if not isinstance(record, dict) or "record" not in record:
            raise ConformanceError(f"{path}: line {number} is not a record of a trigger-conformance stream")
        kind = record.pop("record")
        if kind in ("rule", "fixture") and record.get("status") not in STATUS_WORD:
            raise ConformanceError(f"{path}: line {number}: at $.status: {record.get('status')!r} is not a verdict "
                                   f"(known: {', '.join(STATUS_WORD)})")
        if kind == "rule" and header is not None and header.get("rule_keys") and \
                record.get("key") not in header["rule_keys"]:
            raise ConformanceError(f"{path}: line {number}: at $.key: {record.get('key')!r} is not one of the rule "
                                   f"keys the header lists")
        if kind == "header":
            _check_header(record, f"{path}: line {number}")
            header = record
        elif kind == "rule":
            rules.append(record)
        elif kind == "fixture":
            fixtures.append(record)
        elif kind == "audit":
            audit = record
        elif kind == "explored":
            stopped, explored = record.get("stopped", ""), record.get("scenarios")
        elif kind == "footer":
            footer = record
    if header is None:
        raise ConformanceError(f"{path}: no header line: not a trigger-conformance stream or report")
    if footer is None:  # the run was stopped before it could write its footer: what is here is what was found
        footer = {"interrupted": "stopped before the footer was written", "summary": _summary(rules, fixtures)}
    if footer.get("interrupted") and "not_checked" not in footer:
        done = {r["key"] for r in rules} | {f["id"] for f in fixtures}
        footer["not_checked"] = [k for k in header.get("rule_keys", []) + header.get("fixtures", []) if k not in done]
    order = {key: n for n, key in enumerate(header.get("rule_keys", []))}
    rules.sort(key=lambda r: order.get(r["key"], len(order)))
    return _run(header, rules, fixtures, audit, footer, stopped, explored)


_HEADER_TYPES = {"rule_keys": list, "fixtures": list, "engine": dict, "options": dict, "ruleset": str, "edition": str,
                 "format": str, "tool_version": str}


def from_report(report: dict[str, Any], rule_keys: list[str] | None = None) -> dict[str, Any]:
    """The run of a JSON report (``schemas/report.schema.json``), as :func:`load` returns it. ``rule_keys``: the
    run's rule keys, when known (the report names only those checked), so that a key in ``not_checked`` of an
    interrupted run is told from a fixture id."""
    header = {k: report[k] for k in ("tool_version", "engine", "ruleset", "edition", "options", "seed",
                                      "max_examples")}
    if rule_keys is not None:
        header["rule_keys"] = list(rule_keys)
    footer = {"summary": report["summary"], "seconds": report["seconds"]}
    if report.get("interrupted"):
        footer.update(interrupted=report["interrupted"], not_checked=report.get("not_checked", []))
    return _run(header, report["rules"], report["fixtures"], report.get("audit"), footer,
                report.get("stopped", {}).get("by", ""), report.get("stopped", {}).get("scenarios_explored"))


def _check_header(record: dict[str, Any], where: str) -> None:
    """Raise ConformanceError, naming the field, if a stream header's fields do not have the types a report reads."""
    for field, kind in _HEADER_TYPES.items():
        if field in record and not isinstance(record[field], kind):
            wanted = {list: "an array", dict: "an object", str: "a string"}[kind]
            raise ConformanceError(f"{where}: at $.{field}: expected {wanted}, not {type(record[field]).__name__}")
    for field in ("rule_keys", "fixtures"):
        for n, item in enumerate(record.get(field, ())):
            if not isinstance(item, str):
                raise ConformanceError(f"{where}: at $.{field}[{n}]: expected a string, not {type(item).__name__}")
    name = (record.get("engine") or {}).get("name")
    if name is not None and not isinstance(name, str):
        raise ConformanceError(f"{where}: at $.engine.name: expected a string, not {type(name).__name__}")


def _run(header, rules, fixtures, audit, footer, stopped, explored) -> dict[str, Any]:
    return {"header": header, "rules": rules, "fixtures": fixtures, "audit": audit, "footer": footer,
            "stopped": stopped, "explored": explored, "interrupted": footer.get("interrupted"),
            "not_checked": footer.get("not_checked", [])}


def _summary(rules, fixtures) -> dict[str, int]:
    summary: dict[str, int] = {}
    for prefix, items in (("rules", rules), ("fixtures", fixtures)):
        for item in items:
            summary[f"{prefix}_{item['status']}"] = summary.get(f"{prefix}_{item['status']}", 0) + 1
    return summary


def _title(run: dict) -> str:
    h = run["header"]
    engine = h.get("engine") or {}
    return (f"{h.get('ruleset')} {h.get('edition')} on {engine.get('name', '?')} {engine.get('version', '')}").strip()


def _facts(run: dict) -> list[str]:
    h = run["header"]
    facts = [f"seed {h.get('seed')}", f"{h.get('max_examples')} scenarios"]
    if h.get("shard"):
        facts.append(f"shard {h['shard'][0]}/{h['shard'][1]}")
    if run["stopped"]:
        by = run["stopped"] if run["stopped"].startswith("SIG") else f"the {run['stopped']}"
        facts.append(f"exploration stopped by {by} after {run['explored']} scenarios")
    if run["interrupted"]:
        facts.append(f"INTERRUPTED ({run['interrupted']}): {len(run['not_checked'])} not checked")
    if run["footer"].get("seconds") is not None:
        facts.append(f"{run['footer']['seconds']} s")
    return facts


def _reason(rule: dict) -> str:
    """Why a rule did not pass, in one line."""
    if rule["status"] == "failed":
        return (rule.get("failure") or {}).get("messages", ["violated"])[0]
    if rule["status"] == "errored":
        problems = ", ".join(f"{n} {k}" for k, n in sorted((rule.get("engine_problems") or {}).items()))
        return rule.get("check_error", "").strip().splitlines()[-1:][0] if rule.get("check_error") else (
            f"the engine misbehaved ({problems}): {rule.get('first_problem', '')}")
    if rule["status"] == "skipped":
        return f"the engine declined every scenario: {rule.get('first_problem') or 'no reason given'}"
    if rule["status"] == "unexercised":
        return f"never applied in {rule['scenarios_run']} scenarios: the pass says nothing"
    if rule["status"] == "partial":
        return partial_sentence(rule)
    return ""


def rule_word(rule: dict) -> str:
    """A rule record's verdict word: ``XFAIL`` for a failure its record says was expected (``expectation``), else
    its status's (:data:`STATUS_WORD`)."""
    if rule["status"] == "failed" and rule.get("expectation") in EXPECTED:
        return XFAIL
    return STATUS_WORD.get(rule["status"], rule["status"])


def _apart(run: dict, summary: dict[str, int]) -> dict[str, int]:
    """``summary`` with the run's expected failures counted apart (:func:`expected_apart`)."""
    return expected_apart(summary, sum(1 for rule in run["rules"] if rule_word(rule) == XFAIL))


def counts_line(run: dict) -> str:
    """The run's verdicts counted, for the top of a report: ``21 rules: 17 PASS, 4 FAIL; 12 fixtures: 12 PASS``
    (``not checked`` counted too after an interrupt)."""
    rule_keys = set(run["header"].get("rule_keys", ()))
    missing = {"rules": sum(1 for k in run["not_checked"] if k in rule_keys)}
    missing["fixtures"] = len(run["not_checked"]) - missing["rules"]
    return verdict_counts(_apart(run, _summary(run["rules"], run["fixtures"])), missing)


def fixture_reason(fixture: dict) -> str:
    """Why a fixture did not pass, in one line (its messages; empty for one that passed)."""
    return "" if fixture["status"] == "passed" else "; ".join(fixture.get("messages") or ()) or "no reason given"


def engine_problems(rules: list[dict]) -> list[tuple[dict, list[str]]]:
    """Each distinct problem of the engine (its first problem, where it raised, its stderr's tail) once, with the
    keys of the rules it left with no verdict: ``[(rule entry holding it, [keys])]``, in rule order."""
    groups: dict[tuple[str, str, str], tuple[dict, list[str]]] = {}
    for rule in rules:
        if rule["status"] != "errored" or not (rule.get("engine_traceback") or rule.get("engine_stderr")):
            continue
        what = (rule.get("first_problem", ""), rule.get("engine_traceback", ""), rule.get("engine_stderr", ""))
        groups.setdefault(what, (rule, []))[1].append(rule["key"])
    return list(groups.values())


HANDSHAKE = "the engine failed its handshake"


def handshake_failure(run: dict) -> str | None:
    """The engine's problem when it failed its handshake (every rule and fixture errored with it), else None: the
    reports then say it once instead of once per rule and fixture."""
    entries = run["rules"] + run["fixtures"]
    problems = {r.get("first_problem", "") for r in run["rules"]} | \
        {(f.get("messages") or [""])[0] for f in run["fixtures"]}
    if not entries or len(problems) != 1 or any(e["status"] != "errored" for e in entries):
        return None
    (problem,) = problems
    return problem if problem.startswith(HANDSHAKE) else None


def timeline(expected: dict | None, actual: dict | None) -> tuple[list[tuple[str, str]], int | None]:
    """Both traces as rows (ids renamed alike, so only real differences show) and the index of the first row where
    they differ (None when they are the same)."""
    left = [describe_entry(e) for e in canonical_entries(expected)] if expected else []
    right = [describe_entry(e) for e in canonical_entries(actual)] if actual else []
    rows = [(left[i] if i < len(left) else "", right[i] if i < len(right) else "")
            for i in range(max(len(left), len(right)))]
    first = next((i for i, (a, b) in enumerate(rows) if a != b), None)
    return rows, first


# -- Markdown ---------------------------------------------------------------------------------------------------


def markdown(run: dict) -> str:
    """The run as GitHub Flavored Markdown. Every string a report holds (engine names and messages, ids, scenarios,
    traces; a report file may hold anything) is written literally: escaped as text (:func:`_cell`), as a code span
    (:func:`_code`) or in a fence no line of it can close (:func:`_fence`)."""
    out = [f"# trigger-conformance: {_cell(_title(run))}", "", _paragraph("; ".join(_facts(run))), "",
           f"**{_cell(counts_line(run))}**", ""]
    handshake = handshake_failure(run)
    if handshake:  # one problem, said once: no table of rows that all say it
        out += [f"**{MARK['errored']}:** {_cell(handshake)}; nothing was checked.", "",
                "Rules: " + ", ".join(_code(r["key"]) for r in run["rules"]),
                *(["", "Fixtures: " + ", ".join(_code(f["id"]) for f in run["fixtures"])] if run["fixtures"] else [])]
    else:
        out += _markdown_tables(run)
    for rule in run["rules"]:
        out += _markdown_failure(rule)
    if run["audit"]:  # what --audit audited, whether it found something or not
        out += ["", f"**{_cell(audit_summary(run['audit']))}**"]
        if run["audit"].get("divergence"):
            out += ["", *_fence([line[6:] for line in audit_block(run["audit"])])]
    for rule, keys in engine_problems(run["rules"]):
        out += ["", f"## The engine's problem: {', '.join(_code(k) for k in keys)}"]
        if rule.get("first_problem") != handshake:  # else said once above
            out += ["", _paragraph(rule.get("first_problem", ""))]
        if rule.get("engine_traceback"):
            out += ["", traceback_heading(str(rule["engine_traceback"])).capitalize() + ":", "",
                    *_fence(str(rule["engine_traceback"]).rstrip().splitlines())]
        if rule.get("engine_stderr"):
            out += ["", "The engine's stderr (its tail):", "", *_fence(str(rule["engine_stderr"]).rstrip().splitlines())]
    counts = verdict_counts(_apart(run, run["footer"].get("summary", {})))
    out += ["", f"**Summary:** {_cell(counts)}", ""]
    return "\n".join(out)


def _markdown_tables(run: dict) -> list[str]:
    out = ["| rule | key | status | scenarios | exercised | why |", "| --- | --- | --- | --- | --- | --- |"]
    for rule in run["rules"]:
        out.append(f"| {_cell(rule['rule_number'])} | {_code(rule['key'], True)} | "
                   f"{rule_word(rule)} | {_cell(rule['scenarios_run'])} | "
                   f"{_cell(rule['scenarios_exercised'])} | {_cell(_reason(rule))} |")
    for key in run["not_checked"]:
        out.append(f"| | {_code(key, True)} | {NOT_CHECKED} | | | the run was interrupted |")
    if run["fixtures"]:
        out += ["", "| fixture | status | covers | why |", "| --- | --- | --- | --- |"]
        out += [f"| {_code(f['id'], True)} | {STATUS_WORD.get(f['status'], f['status'])} | "
                f"{_cell(', '.join(map(str, f['rule_keys'])))} | {_cell(fixture_reason(f))} |" for f in run["fixtures"]]
    return out


def _markdown_failure(rule: dict) -> list[str]:
    failure = rule.get("failure")
    if not failure:
        return []
    out = ["", f"## {rule_word(rule)}: {_code(rule['key'])} [{_cell(rule['rule_number'])}]", "",
           _paragraph(rule["summary"]), ""]
    out += [f"* {_paragraph(m)}" for m in failure["messages"]]
    out += ["", f"Shrunk from size {_cell(failure['original_size'])} to {_cell(failure['shrunk_size'])}.", "",
            *_fence(describe_scenario(failure["scenario"])), ""]
    rows, first = timeline(failure.get("expected_trace"), failure.get("actual_trace"))
    out += ["| # | expected (reference engine) | actual (engine under test) |", "| --- | --- | --- |"]
    for i, (a, b) in enumerate(rows):
        mark = " **first difference**" if i == first else (" (differs)" if a != b else "")
        out.append(f"| {i}{mark} | {_cell(a)} | {_cell(b)} |")
    if failure.get("replay_command"):
        out += ["", f"Reproduce with: {_code(failure['replay_command'])}"]
    return out


# Markdown's inline syntax (emphasis, code, strikethrough, raw HTML and autolinks, table cells, escapes); "](" makes
# links and images, a leading "#", ">", "-", "+", "=" or "1." a heading, quote or list.
_MARKDOWN_INLINE = re.compile(r"([\\`*_~|])")
_MARKDOWN_LEADING = re.compile(r"^(\s*\d*)([#+=.)-])")


def _cell(text: Any) -> str:
    """``text`` as literal Markdown inline text (a table cell, or within a line): on one line, control characters
    escaped (:func:`conformance.reports.text.shown`), nothing in it read as Markdown or HTML."""
    text = shown(str(text).replace("\r\n", " ").replace("\n", " "))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_INLINE.sub(r"\\\1", text).replace("](", "]\\(")


def _paragraph(text: Any) -> str:
    """``text`` as :func:`_cell` makes it, for the start of a line (a paragraph, a bullet): nor can it begin a
    heading, a quote or a list."""
    return _MARKDOWN_LEADING.sub(lambda m: m.group(1) + "\\" + m.group(2), _cell(text))


def _code(text: Any, in_table: bool = False) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds (``in_table``: its ``|`` escaped, as a table
    cell needs)."""
    text = shown(str(text))
    if in_table:
        text = text.replace("|", "\\|")
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _fence(lines: list[str]) -> list[str]:
    """``lines`` as a fenced code block that none of them can close (its fence is longer than any run of
    backticks in them), control characters escaped."""
    lines = [shown(str(line), lines=True) for line in lines]
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, *lines, fence]


# -- HTML -------------------------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1b1b;max-width:1400px}
h1{font-size:1.5em;margin-bottom:.2em} .facts{color:#555;margin-bottom:1.2em}
table{border-collapse:collapse;margin:.6em 0} th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;
vertical-align:top} th{background:#f0f0f0}
td.key{white-space:nowrap} tr.passed td.status{color:#176f2c} tr.failed td.status,tr.errored td.status{color:#b00020;font-weight:bold}
tr.unexercised td.status,tr.skipped td.status,tr.not-checked td.status,tr.partial td.status{color:#8a6100}
.failure{border-left:4px solid #b00020;padding:.2em 1em;margin:1.5em 0;background:#fff8f8}
.failure h2{font-size:1.15em} pre,code{font:12px/1.35 ui-monospace,monospace}
pre.scenario{background:#f6f6f6;padding:.6em;white-space:pre-wrap}
table.timeline td{font:12px/1.3 ui-monospace,monospace;white-space:pre-wrap}
table.timeline tr.differs td{background:#fff1c2} table.timeline tr.first-difference td{background:#ffb3b3;
font-weight:bold} .replay{background:#eef4ff;padding:.5em;display:block}
"""


def html(run: dict) -> str:
    e = _html.escape
    title = f"trigger-conformance: {_title(run)}"
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{e(title)}</title>"
             f"<style>{_CSS}</style></head><body>", f"<h1>{e(title)}</h1>",
             f"<div class=facts>{e(' · '.join(_facts(run)))}</div>",
             f"<p id=counts><b>{e(counts_line(run))}</b></p>"]
    handshake = handshake_failure(run)
    if handshake:  # one problem, said once: no table of rows that all say it
        parts.append(f"<p id=handshake class=errored><b>{e(MARK['errored'])}:</b> {e(handshake)}; nothing was "
                     f"checked.</p><p>Rules: {e(', '.join(r['key'] for r in run['rules']))}</p>")
        if run["fixtures"]:
            parts.append(f"<p>Fixtures: {e(', '.join(f['id'] for f in run['fixtures']))}</p>")
    parts += _html_tables(run) if not handshake else []
    parts += _html_failures(run)
    if run["audit"]:  # what --audit audited, whether it found something or not
        parts.append(f"<p id=audit><b>{e(audit_summary(run['audit']))}</b></p>")
        if run["audit"].get("divergence"):
            parts.append(f"<pre class=audit>{e(chr(10).join(line[6:] for line in audit_block(run['audit'])))}</pre>")
    for rule, keys in engine_problems(run["rules"]):
        parts.append(f"<section class=engine-problem><h2>The engine's problem: {e(', '.join(keys))}</h2>")
        if rule.get("first_problem") != handshake:  # else said once above
            parts.append(f"<p>{e(rule.get('first_problem', ''))}</p>")
        if rule.get("engine_traceback"):
            parts.append(f"<h3>{e(traceback_heading(rule['engine_traceback']).capitalize())}</h3>"
                         f"<pre class=traceback>{e(rule['engine_traceback'])}</pre>")
        if rule.get("engine_stderr"):
            parts.append(f"<details class=stderr><summary>the engine's stderr (its tail)</summary>"
                         f"<pre>{e(rule['engine_stderr'])}</pre></details>")
        parts.append("</section>")
    counts = verdict_counts(_apart(run, run["footer"].get("summary", {})))
    parts.append(f"<p id=summary><b>Summary:</b> {e(counts)}</p></body></html>")
    return "\n".join(parts)


def _html_tables(run: dict) -> list[str]:
    e = _html.escape
    parts = ["<table id=rules><thead><tr><th>rule</th><th>key</th><th>status</th><th>scenarios</th>"
             "<th>exercised</th><th>why</th></tr></thead><tbody>"]
    for rule in run["rules"]:
        link = f"<a href='#{e(rule['key'])}'>{e(rule['key'])}</a>" if rule.get("failure") else e(rule["key"])
        parts.append(f"<tr class='{e(rule['status'])}'><td>{e(rule['rule_number'])}</td><td class=key>{link}</td>"
                     f"<td class=status>{e(rule_word(rule))}</td>"
                     f"<td>{e(str(rule['scenarios_run']))}</td><td>{e(str(rule['scenarios_exercised']))}</td>"
                     f"<td>{e(_reason(rule))}</td></tr>")
    for key in run["not_checked"]:
        parts.append(f"<tr class=not-checked><td></td><td>{e(key)}</td><td class=status>{NOT_CHECKED}</td><td></td>"
                     f"<td></td><td>the run was interrupted</td></tr>")
    parts.append("</tbody></table>")
    if run["fixtures"]:
        parts.append("<table id=fixtures><thead><tr><th>fixture</th><th>status</th><th>covers</th><th>why</th></tr>"
                     "</thead><tbody>")
        parts += [f"<tr class='{e(f['status'])}'><td>{e(f['id'])}</td><td class=status>"
                  f"{e(STATUS_WORD.get(f['status'], f['status']))}</td><td>{e(', '.join(f['rule_keys']))}</td>"
                  f"<td>{e(fixture_reason(f))}</td></tr>" for f in run["fixtures"]]
        parts.append("</tbody></table>")
    return parts


def _html_failures(run: dict) -> list[str]:
    e = _html.escape
    parts = []
    for rule in run["rules"]:
        failure = rule.get("failure")
        if not failure:
            continue
        parts.append(f"<section class=failure id='{e(rule['key'])}'><h2>{e(rule_word(rule))}: "
                     f"{e(rule['key'])} [{e(rule['rule_number'])}]</h2><p>{e(rule['summary'])}</p><ul class=why>")
        parts += [f"<li>{e(m)}</li>" for m in failure["messages"]]
        sizes = f"{failure['original_size']} to {failure['shrunk_size']}"
        parts.append(f"</ul><p>Shrunk from size {e(sizes)}"
                     + (f"; also violates {e(', '.join(failure['also_violates']))}" if failure.get("also_violates")
                        else "") + ".</p>")
        parts.append(f"<h3>Scenario</h3><pre class=scenario>{e(chr(10).join(describe_scenario(failure['scenario'])))}"
                     f"</pre><details><summary>the scenario as JSON</summary><pre>"
                     f"{e(json.dumps(failure['scenario'], indent=1))}</pre></details>")
        rows, first = timeline(failure.get("expected_trace"), failure.get("actual_trace"))
        parts.append("<h3>Traces</h3>" + (f"<p>First difference at entry {first}.</p>" if first is not None else
                                          "<p>The traces are the same.</p>"))
        parts.append("<table class=timeline><thead><tr><th>#</th><th>expected (reference engine)</th>"
                     "<th>actual (engine under test)</th></tr></thead><tbody>")
        for i, (a, b) in enumerate(rows):
            cls = "first-difference differs" if i == first else ("differs" if a != b else "same")
            parts.append(f"<tr class='{cls}'><td>{i}</td><td>{e(a)}</td><td>{e(b)}</td></tr>")
        parts.append("</tbody></table>")
        if failure.get("replay_command"):
            parts.append(f"<h3>Reproduce</h3><code class=replay>{e(failure['replay_command'])}</code>")
        parts.append("</section>")
    return parts


# -- JUnit XML --------------------------------------------------------------------------------------------------


def junit(run: dict) -> str:
    """JUnit XML: a rule violation is a ``<failure>``, no verdict (the engine misbehaved, a check raised) an
    ``<error>``, a rule that never applied or that the engine declined ``<skipped>``, with the reason; classname
    ``trigger-conformance.<ruleset>``, names as the pytest items' (``test_rule[KEY]``)."""
    classname = f"trigger-conformance.{run['header'].get('ruleset')}"
    cases = []
    for rule in run["rules"]:
        case = ET.Element("testcase", classname=classname, name=f"test_rule[{rule['key']}]",
                          time=str(rule.get("seconds", 0)))
        text = _case_text(rule)
        if rule.get("engine_stderr"):  # the tail of what a process engine wrote on stderr with its first problem
            ET.SubElement(case, "system-err").text = rule["engine_stderr"]
        if rule["status"] == "failed":
            ET.SubElement(case, "failure", message=_reason(rule)[:500]).text = text
        elif rule["status"] == "errored":
            ET.SubElement(case, "error", message=_reason(rule)[:500]).text = text
        elif rule["status"] in ("skipped", "unexercised"):
            ET.SubElement(case, "skipped", message=_reason(rule)[:500])
        elif rule["status"] == "partial":  # never a pass: no verdict, and what was seen before the interrupt
            ET.SubElement(case, "skipped", message=f"not concluded: the run was interrupted ({run['interrupted']}); "
                          f"{_reason(rule)}"[:500])
        cases.append(case)
    for fixture in run["fixtures"]:
        case = ET.Element("testcase", classname=classname, name=f"test_fixture[{fixture['id']}]", time="0")
        tag = {"failed": "failure", "errored": "error", "skipped": "skipped"}.get(fixture["status"])
        if tag:
            ET.SubElement(case, tag, message="; ".join(fixture["messages"])[:500]).text = "\n".join(
                fixture["messages"])
        cases.append(case)
    for key in run["not_checked"]:
        case = ET.Element("testcase", classname=classname, name=f"test_rule[{key}]" if key in run["header"].get(
                          "rule_keys", ()) else f"test_fixture[{key}]", time="0")
        ET.SubElement(case, "skipped", message=f"not checked: the run was interrupted ({run['interrupted']})")
        cases.append(case)
    count = lambda tag: sum(1 for c in cases if c.find(tag) is not None)  # noqa: E731
    suite = ET.Element("testsuite", name="trigger-conformance", tests=str(len(cases)), failures=str(count("failure")),
                       errors=str(count("error")), skipped=str(count("skipped")),
                       time=str(run["footer"].get("seconds", 0)))
    suite.extend(cases)
    root = ET.Element("testsuites")
    root.append(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _case_text(rule: dict) -> str:
    from conformance.reports.text import failure_block, rule_row

    return "\n".join([rule_row(rule), *failure_block(rule)])


RENDERERS = {"markdown": markdown, "html": html, "junit": junit}
