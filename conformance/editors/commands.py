"""The editors' subcommands: ``lint-rules``, ``diff`` and ``rules --matrix`` (wired in conformance/cli.py).

Exit codes as everywhere: 0 nothing found, 1 a contradiction, an ambiguity, a lint problem or a difference was
found, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from conformance.editors import report
from conformance.editors.analysis import Side, diff, edited_invariants, explore_rules, load_invariants
from conformance.editors.small import DEFAULT_SKEW
from conformance.editors.matrix import lint_text, matrix, render_matrix, text_findings
from conformance.documents import DocumentError, loads, read_bytes
from reference_engine.kernel.errors import ConformanceError
from conformance.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset


def _ruleset(name: str):
    try:
        return get_ruleset(name)
    except KeyError as exc:
        raise ConformanceError(exc.args[0]) from None


def _option_pairs(values: list[str]) -> list[tuple[str, Any]]:
    pairs = []
    for text in values or ():
        name, sep, raw = text.partition("=")
        if not sep:
            raise ConformanceError(f"--option takes NAME=VALUE, not {text!r}")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        pairs.append((name, value))
    return pairs


MAX_RULES_TEXT_BYTES = 8 * 1024 * 1024  # a whole comprehensive rules document is about 1 MiB


def _rules_text(path: str) -> str:
    """The UTF-8 text of the regular file ``path`` (at most MAX_RULES_TEXT_BYTES), read with the bounded reader of
    :mod:`conformance.documents` (a FIFO or a device is refused at once). Raises ConformanceError naming the file."""
    try:
        raw = read_bytes(path, limit=MAX_RULES_TEXT_BYTES)
    except DocumentError as exc:
        raise ConformanceError(f"--rules-text {path}: " + "; ".join(m for _, m in exc.problems)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConformanceError(f"--rules-text {path}: not a text file (it is not UTF-8: byte {exc.start})") from None


def _at_least(minimum, kind=int):
    """An argparse type: a ``kind`` number of at least ``minimum`` (argparse reports anything else, exit 2)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a{'n integer' if kind is int else ' number'}") from None
        if not value >= minimum:  # also refuses nan
            raise argparse.ArgumentTypeError(f"{text} is less than {minimum}")
        return value
    return parse


def _within(enumerated: int, args) -> str:
    """The sample a sweep covered, for its "none found within ..." line."""
    if getattr(args, "scenario", None):
        return f"the {enumerated} given scenario(s), every trace of each"
    return (f"{enumerated} small generated scenarios, seed {args.seed}, skew {args.skew}, at most {args.max_runs} "
            "plays each, every trace of each: a sample, not every scenario")


def lint_rules(args) -> int:
    ruleset = _ruleset(args.ruleset)
    edition = args.edition or ruleset.default_edition
    if edition not in ruleset.editions:
        raise ConformanceError(f"--edition: ruleset {ruleset.name} has no edition {edition!r} (known: "
                               f"{', '.join(ruleset.editions)})")
    try:
        extra = [inv for spec in args.with_ or () for inv in load_invariants(spec)]
        invariants = edited_invariants(ruleset, edition, extra, args.without or ())
    except (ValueError, KeyError) as exc:
        raise ConformanceError(str(exc.args[0] if exc.args else exc)) from None
    options = dict(_option_pairs(args.option))
    try:
        ruleset.resolve_options(options)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None
    text = _rules_text(args.rules_text) if args.rules_text else None
    problems = lint_text(ruleset, text)
    documents = None
    if args.scenario:
        documents = []
        for path in args.scenario:
            document = loads(read_bytes(path), path)
            if isinstance(document, dict) and "scenario" in document:  # a fixture: its scenario
                document = document["scenario"]
            if not isinstance(document, dict):
                raise ConformanceError(f"--scenario {path}: not a scenario (a JSON object) nor a fixture holding one")
            if document.get("ruleset") != ruleset.name:
                raise ConformanceError(f"--scenario {path} is a scenario of {document.get('ruleset')}, not {ruleset.name}")
            prepare_scenario(document, path)  # schema, vocabulary and consistency, with the JSON path at fault
            documents.append({**document, "options": {**document.get("options", {}), **options}})
    findings = explore_rules(ruleset, edition, invariants, options=options, scenarios=args.scenarios,
                             seed=args.seed, max_runs=args.max_runs, documents=documents, skew=args.skew)
    summary = [f"lint-rules {ruleset.name} {edition}: {len(invariants)} rule keys; {findings.scenarios} small "
               f"scenarios enumerated ({findings.too_large} larger ones skipped), {findings.traces} traces explored"]
    print(summary[0])
    for problem in problems:
        print(f"LINT  {problem}")
    notes = text_findings(ruleset, text) if text is not None else []
    for note in notes:
        print(f"TEXT  {note}")
    written = report.lint_findings(ruleset, edition, invariants, text, problems, notes, findings,
                                   concerned=[*(args.without or ()), *(inv.key for inv in extra)])
    for finding in written:
        if finding["kind"] in ("contradiction", "ambiguity"):
            print(report.console(finding))
    found = bool(problems or findings.contradictions or findings.ambiguities)
    if not found:
        summary.append(f"no contradiction, no ambiguity, the text and the keys agree (none found within "
                       f"{_within(findings.scenarios, args)})")
        print(summary[-1])
    _write(report.document("lint-rules", ruleset, [edition], summary, written, options=options,
                           rules_text=args.rules_text), args)
    return 1 if found else 0


def _write(doc, args) -> None:
    for line in report.write(doc, args):
        print(line)


def diff_command(args) -> int:
    ruleset = _ruleset(args.ruleset)
    editions = args.edition or []
    options = _option_pairs(args.option)
    if len(editions) == 2 and not options and editions[0] == editions[1]:
        raise ConformanceError(f"diff: --edition {editions[0]} is given twice; give two different editions")
    if len(options) == 2 and options[0] == options[1]:
        raise ConformanceError(f"diff: --option {options[0][0]}={json.dumps(options[0][1])} is given twice; give two "
                               "different values of one option")
    if len(editions) == 2 and not options:
        sides = [(f"edition {e}", e, {}) for e in editions]
    elif len(options) == 2 and len(editions) <= 1 and options[0][0] == options[1][0]:
        edition = editions[0] if editions else ruleset.default_edition
        sides = [(f"{n}={json.dumps(v)}", edition, {n: v}) for n, v in options]
    else:
        raise ConformanceError("diff takes two --edition, or two --option NAME=VALUE of one option")
    built = []
    for name, edition, opts in sides:
        if edition not in ruleset.editions:
            raise ConformanceError(f"ruleset {ruleset.name} has no edition {edition!r}")
        try:
            ruleset.resolve_options(opts)
        except ValueError as exc:
            raise ConformanceError(str(exc)) from None
        built.append(Side(name, edition, opts, ruleset.invariants_for(edition)))
    counts: dict[str, int] = {}
    found = diff(ruleset, *built, scenarios=args.scenarios, seed=args.seed, max_runs=args.max_runs, limit=args.limit,
                 skew=args.skew, counts=counts)
    summary = [f"diff {ruleset.name}: {counts['compared']} small scenarios enumerated under both sides "
               f"({counts['too_large']} larger ones skipped)"]
    print(summary[0])
    if not found:
        summary.append(f"no difference found between {built[0].name} and {built[1].name} (none found within "
                       f"{_within(counts['compared'], args)})")
        print(summary[-1])
    written = report.diff_findings(ruleset, built, found, _rules_text(args.rules_text)
                                   if getattr(args, "rules_text", None) else None)
    for finding in written:
        print(report.console(finding))
    _write(report.document("diff", ruleset, list(dict.fromkeys(s.edition for s in built)), summary, written,
                           rules_text=getattr(args, "rules_text", None)), args)
    return 1 if found else 0


def rules_matrix(args) -> int:
    ruleset = _ruleset(args.ruleset or "momon-wonder")
    run = _run_report(args.report, ruleset.name) if args.report else None
    rows = matrix(ruleset, run)
    print(render_matrix(rows))
    _write(report.document("rules --matrix", ruleset, [ruleset.default_edition], [f"rules --matrix {ruleset.name}"
                           + (f": exercised counts from {args.report}" if args.report else "")], [], matrix=rows), args)
    return 0


def _run_report(path: str, ruleset: str) -> dict[str, Any]:
    """A run read from ``path``: its JSON Lines stream (``--report-jsonl``, the source of truth, an interrupted one
    included) or its JSON report (``--report-json``), with the reader of ``trigger-conformance report``
    (:func:`conformance.reports.render.load`: a bounded, regular file; a report matching its schema). Returns
    ``{"ruleset", "rules": {key: {"scenarios_exercised", "status"}}, "interrupted", "not_checked"}``. Raises
    ConformanceError naming the file for anything else, or a run of another ruleset."""
    from conformance.reports.render import load

    try:
        run = load(path)
    except ConformanceError as exc:
        raise ConformanceError(f"--report: {exc}") from None
    except (KeyError, TypeError, AttributeError) as exc:  # a stream whose records lack the fields of this tool's
        raise ConformanceError(f"--report {path}: not a stream or report of this tool (its records lack or "
                               f"mistype a field: {type(exc).__name__}: {exc})") from None
    where = f"--report {path}"
    header = run["header"] if isinstance(run["header"], dict) else {}
    if header.get("ruleset") not in (None, ruleset):
        raise ConformanceError(f"{where} is a report of {header.get('ruleset')}, not {ruleset}")
    rules: dict[str, dict[str, Any]] = {}
    for n, entry in enumerate(run["rules"]):
        exercised = entry.get("scenarios_exercised")
        if not isinstance(entry.get("key"), str) or not isinstance(exercised, int) or isinstance(exercised, bool):
            raise ConformanceError(f"{where}: rule verdict {n + 1} has no rule key or no scenarios_exercised count; "
                                   "not a report of this tool")
        rules[entry["key"]] = {"scenarios_exercised": exercised, "status": entry["status"]}
    not_checked = run["not_checked"] if isinstance(run["not_checked"], list) else []
    return {"ruleset": header.get("ruleset"), "rules": rules, "interrupted": run["interrupted"],
            "not_checked": [k for k in not_checked if isinstance(k, str)]}


def add_parsers(commands) -> None:
    """Add ``lint-rules`` and ``diff`` to the CLI's subcommands."""
    p = commands.add_parser("lint-rules", help="for rules editors: contradictions, ambiguities and the rule-text lint")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--with", dest="with_", action="append", metavar="MODULE:ATTRIBUTE",
                   help="add an invariant (or a list) of this ruleset, or replace the one with its key; MODULE is "
                        "imported as --engine imports one (installed or on PYTHONPATH, else from the current "
                        "directory, said on stderr)")
    report.add_options(p)
    p.add_argument("--without", action="append", metavar="KEY", help="drop a rule key for this run")
    p.add_argument("--rules-text", metavar="FILE", help="an editor's draft of the rule text (a regular UTF-8 file of "
                   f"at most {MAX_RULES_TEXT_BYTES // (1024 * 1024)} MiB), linted against the keys")
    p.add_argument("--scenario", action="append", metavar="FILE",
                   help="a hand-written scenario (or fixture) to enumerate instead of generated ones")
    p.add_argument("--scenarios", type=_at_least(0), default=40, help="generated scenarios to try (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-runs", type=_at_least(1), default=200, help="skip a scenario with more branches than this")
    p.add_argument("--skew", type=_at_least(1.0, float), default=DEFAULT_SKEW,
                   help=f"how strongly generated scenarios are drawn small (default {DEFAULT_SKEW}; 1 = full size)")
    p.set_defaults(handler=lint_rules)

    p = commands.add_parser("diff", help="for rules editors: minimal scenarios whose required traces differ between "
                            "two editions or two values of an option")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", action="append")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--scenarios", type=_at_least(0), default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-runs", type=_at_least(1), default=200)
    p.add_argument("--skew", type=_at_least(1.0, float), default=DEFAULT_SKEW,
                   help=f"how strongly generated scenarios are drawn small (default {DEFAULT_SKEW}; 1 = full size)")
    p.add_argument("--limit", type=_at_least(1), default=1, help="how many differences to show (default 1)")
    report.add_options(p)
    p.set_defaults(handler=diff_command)
