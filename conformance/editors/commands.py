"""The editors' subcommands: ``lint-rules``, ``diff`` and ``rules --matrix`` (wired in conformance/commands/cli.py).

Exit codes as everywhere: 0 nothing found, 1 a contradiction, an ambiguity, a lint problem or a difference was
found, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from conformance.editors import exhaustive, exhaustive_cli, pages, report
from conformance.editors.analysis import Side, diff, edited_invariants, explore_rules, load_invariants
from conformance.editors.targeting import Sample
from conformance.editors.small import DEFAULT_SKEW
from conformance.editors.readings import PER_POINT
from conformance.editors.matrix import (
    check_changes, fixture_editions, lint_text, matrix, matrix_gaps, render_matrix, text_findings,
)
from conformance.documents.json_io import DocumentError, loads, read_bytes
from reference_engine.kernel.errors import ConformanceError
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset, paragraphs


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
    :mod:`conformance.documents.json_io` (a FIFO or a device is refused at once). Raises ConformanceError naming the file."""
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


def _scenario_documents(paths, ruleset, options: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The hand-written scenarios (or fixtures' scenarios) of ``--scenario`` (None without any), each with
    ``options`` over its own. Raises ConformanceError naming a file that is not a valid scenario of ``ruleset``."""
    if not paths:
        return None
    documents = []
    for path in paths:
        document = loads(read_bytes(path), path)
        if isinstance(document, dict) and "scenario" in document:  # a fixture: its scenario
            document = document["scenario"]
        if not isinstance(document, dict):
            raise ConformanceError(f"--scenario {path}: not a scenario (a JSON object) nor a fixture holding one")
        if document.get("ruleset") != ruleset.name:
            raise ConformanceError(f"--scenario {path} is a scenario of {document.get('ruleset')}, not {ruleset.name}")
        prepare_scenario(document, path)  # schema, vocabulary and consistency, with the JSON path at fault
        documents.append({**document, "options": {**document.get("options", {}), **options}})
    return documents


def _edited(ruleset, edition: str, args, dropped: tuple[str, ...] = ()):
    """The invariants of ``edition`` with ``--with`` and ``--without`` (and ``dropped``) applied."""
    try:
        extra = [inv for spec in args.with_ or () for inv in load_invariants(spec)]
        replaced = {inv.key for inv in extra}
        return edited_invariants(ruleset, edition, extra, [*(args.without or ()),
                                                            *(k for k in dropped if k not in replaced
                                                              and k not in (args.without or ()))])
    except (ValueError, KeyError) as exc:
        raise ConformanceError(str(exc.args[0] if exc.args else exc)) from None


def lint_rules(args) -> int:
    ruleset = _ruleset(args.ruleset)
    edition = args.edition or ruleset.default_edition
    if edition not in ruleset.editions:
        raise ConformanceError(f"--edition: ruleset {ruleset.name} has no edition {edition!r} (known: "
                               f"{', '.join(ruleset.editions)})")
    invariants = _edited(ruleset, edition, args)
    published = {id(inv) for inv in ruleset.invariants_for(edition)}  # what --with adds or replaces is not here
    options = dict(_option_pairs(args.option))
    try:
        ruleset.resolve_options(options)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None
    text = _rules_text(args.rules_text) if args.rules_text else None
    problems = lint_text(ruleset, text, args.rules_text or "the text")
    if args.exhaustive:
        from conformance.editors.exhaustive_cli import lint_exhaustive

        notes = text_findings(ruleset, text) if text is not None else []
        return lint_exhaustive(args, ruleset, edition, invariants, options, problems, text, notes,
                               [*(args.without or ()), *(inv.key for inv in invariants if id(inv) not in published)])
    exhaustive_cli.refuse_alone(args)
    args.max_runs = args.max_runs or 200
    documents = _scenario_documents(args.scenario, ruleset, options)
    findings = explore_rules(ruleset, edition, invariants, options=options, scenarios=args.scenarios,
                             seed=args.seed, max_runs=args.max_runs, documents=documents, skew=args.skew,
                             per_point=args.per_branch_point if args.scenarios else 0, option_search=True)
    summary = [f"lint-rules {ruleset.name} {edition}: {len(invariants)} rule keys; {findings.scenarios} small "
               f"scenarios enumerated ({findings.too_large} larger ones skipped), {findings.traces} traces explored"]
    if findings.interrupted:
        summary[0] += ("; INTERRUPTED: the search stopped there, what it found so far is reported and written, "
                       "the scenarios after it were not enumerated")
    print(summary[0])
    for problem in problems:
        print(f"LINT  {problem}")
    notes = text_findings(ruleset, text) if text is not None else []
    for note in notes:
        print(f"TEXT  {note}")
    written = report.lint_findings(ruleset, edition, invariants, text, problems, notes, findings,
                                   concerned=[*(args.without or ()), *(inv.key for inv in invariants
                                                                        if id(inv) not in published)])
    for finding in written:
        if finding["kind"] in ("contradiction", "ambiguity"):
            print(pages.console(finding))
    if findings.met:
        summary.append(f"how far the search went: {findings.reach()}")
        print(summary[-1])
    # An open reading an option names is documented (the option is the project's decision, listed in the README):
    # reported, not a failure. A new one, a contradiction or a lint problem is.
    new = [a for a in findings.ambiguities if a.option is None]
    found = bool(problems or findings.contradictions or new)
    if findings.ambiguities and not new and not problems and not findings.contradictions:
        summary.append(f"{len(findings.ambiguities)} open reading(s), each named by an option; no contradiction, "
                       f"no new ambiguity (none found within {_within(findings.scenarios, args)})")
        print(summary[-1])
    elif not found:
        summary.append(f"no contradiction, no ambiguity, the text and the keys agree (none found within "
                       f"{_within(findings.scenarios, args)})")
        print(summary[-1])
    counts = {"enumerated": findings.scenarios, "too_large": findings.too_large, "traces": findings.traces}
    _write(report.document("lint-rules", ruleset, [edition], summary, written, options=options,
                           rules_text=args.rules_text, coverage=report.coverage(
                               "given" if args.scenario else "sample", _within(findings.scenarios, args), counts)),
           args)
    if findings.interrupted:
        raise KeyboardInterrupt  # everything found is printed and written: now exit as interrupted (130 or 143)
    return 1 if found else 0


def _write(doc, args, json_option: str = "--report-json") -> None:
    for line in pages.write(doc, args, json_option):
        print(line)


def _sides(ruleset, args) -> tuple[list[Side], str | None]:
    """The two sides ``diff``'s arguments name, and the draft text (or None). Two ``--edition`` alone, or two values
    of one option alone, compare those; anything else (option values, ``--with``, ``--without``, ``--rules-text``,
    one ``--edition``) is a draft compared with the rules as published (default options, published keys) in that
    edition. Raises ConformanceError for arguments naming no change or two things at once."""
    editions = args.edition or []
    options = _option_pairs(args.option)
    drafting = bool(args.with_ or args.without or args.rules_text)
    for edition in editions:
        if edition not in ruleset.editions:
            raise ConformanceError(f"ruleset {ruleset.name} has no edition {edition!r} (known: "
                                   f"{', '.join(ruleset.editions)})")
    if len(editions) > 2:
        raise ConformanceError("diff takes at most two --edition")
    if len(editions) == 2 and not options and not drafting:
        if editions[0] == editions[1]:
            raise ConformanceError(f"diff: --edition {editions[0]} is given twice; give two different editions")
        return [Side(f"edition {e}", e, {}, ruleset.invariants_for(e)) for e in editions], None
    if len(editions) == 2:
        raise ConformanceError("diff: two --edition compare two editions; a draft (--option, --with, --without, "
                               "--rules-text) is compared with the published rules in one edition")
    edition = editions[0] if editions else ruleset.default_edition
    if len(options) == 2 and options[0][0] == options[1][0] and not drafting:
        if options[0] == options[1]:
            raise ConformanceError(f"diff: --option {options[0][0]}={json.dumps(options[0][1])} is given twice; give "
                                   "two different values of one option")
        sides = [Side(f"{n}={json.dumps(v)}", edition, {n: v}, ruleset.invariants_for(edition)) for n, v in options]
        for side in sides:
            _resolve(ruleset, side.options)
        return sides, None
    names = [n for n, _ in options]
    if len(set(names)) != len(names):
        raise ConformanceError("diff: an option is given twice with other changes; give two values of one option "
                               "alone, or one value of each option in a draft")
    draft_options = dict(options)
    _resolve(ruleset, draft_options)
    text = _rules_text(args.rules_text) if args.rules_text else None
    stale: tuple[str, ...] = ()
    if text is not None:
        stale = tuple(dict.fromkeys(k for s in ruleset.stale_keys(paragraphs(ruleset.name, text)) if s.drops_keys
                                     for k in s.keys))
    invariants = _edited(ruleset, edition, args, stale)
    published = Side("published", edition, {}, ruleset.invariants_for(edition))
    what = [f"{n}={json.dumps(v)}" for n, v in draft_options.items() if ruleset.resolve_options({})[n] != v]
    what += [f"with {spec}" for spec in args.with_ or ()] + [f"without {k}" for k in args.without or ()]
    what += [f"text {args.rules_text} (its changed sentences' keys dropped: {', '.join(stale) or 'none'})"] \
        if text is not None else []
    if not editions and not what:
        raise ConformanceError("diff takes two --edition, two --option NAME=VALUE of one option, or a draft: "
                               "--option NAME=VALUE, --with MODULE:ATTRIBUTE, --without KEY, --rules-text FILE "
                               "(see diff --list-edits)")
    if editions and edition != ruleset.default_edition and not what:
        published = Side(f"edition {ruleset.default_edition}", ruleset.default_edition, {},
                         ruleset.invariants_for(ruleset.default_edition))
        return [published, Side(f"edition {edition}", edition, {}, ruleset.invariants_for(edition))], None
    if not what:
        raise ConformanceError(f"diff: --edition {edition} alone is the published edition; name a change")
    return [published, Side(f"draft ({'; '.join(what)})", edition, draft_options, invariants)], text


def _resolve(ruleset, options: dict[str, Any]) -> None:
    try:
        ruleset.resolve_options(options)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None


def list_edits(ruleset) -> list[tuple[str, str]]:
    """Ready-made edits of ``ruleset`` an editor can diff without writing code: (the exact ``diff`` command line, what
    it changes), for every other edition, every value of every option other than its default, every ready-made draft
    (:data:`conformance.editors.drafts.READY_MADE`) and every rule key to drop."""
    from conformance.editors.drafts import READY_MADE

    head = f"trigger-conformance diff --ruleset {ruleset.name}"
    edits = [(f"{head} --edition {e}", f"edition {e} instead of {ruleset.default_edition}")
             for e in ruleset.editions if e != ruleset.default_edition]
    for option in ruleset.options:
        for value, meaning in option.values.items():
            if value != option.default:
                shown = json.dumps(value) if not isinstance(value, str) else value
                edits.append((f"{head} --option {option.name}={shown}", f"{option.stands_for}: {meaning}"))
    for spec, what in READY_MADE.get(ruleset.name, {}).items():
        edits.append((f"{head} --with {spec}", what))
    for inv in ruleset.invariants_for(ruleset.default_edition):
        edits.append((f"{head} --without {inv.key}", f"drop {inv.key} [{inv.rule_number(ruleset.default_edition)}]: "
                      f"{inv.summary}"))
    return edits


def diff_command(args) -> int:
    ruleset = _ruleset(args.ruleset)
    if args.list_edits:
        for command, what in list_edits(ruleset):
            print(f"{command}\n    {what}")
        return 0
    if not args.exhaustive:
        exhaustive_cli.refuse_alone(args)
    elif args.scenario:
        raise ConformanceError("--exhaustive enumerates its own scenarios; --scenario is for the sampled diff")
    built, text = _sides(ruleset, args)
    documents = _scenario_documents(args.scenario, ruleset, {})
    if text is not None:
        for problem in lint_text(ruleset, text, getattr(args, "rules_text", None) or "the text"):
            if "STALE" in problem or " does not look like " in problem:
                print(f"LINT  {problem}")
        for note in text_findings(ruleset, text):
            print(f"TEXT  {note}")
    unchecked = check_changes(ruleset, text) if text is not None else []
    for line in unchecked:
        print(f"CHECK {line}")
    if args.exhaustive:
        found, summary, coverage = exhaustive_cli.diff_exhaustive(args, ruleset, built)
    else:
        found, summary, coverage = _diff_sampled(args, ruleset, built, documents)
    if unchecked:
        summary.append(f"the draft changes {len(unchecked)} sentence(s) that no key checks as written: " +
                       " | ".join(unchecked))
        print(f"NOT CHECKED: {len(unchecked)} changed or new sentence(s) of the draft are not checked as written "
              "(CHECK lines above); give an invariant for each with --with MODULE:ATTRIBUTE")
    written = report.diff_findings(ruleset, built, found, text)
    for finding in written:
        print(pages.console(finding))
    if getattr(args, "limited", None):  # said last too, below the differences, where a reader looks for more
        summary.append(f"{len(found)} difference(s) shown: the search stopped there (--limit {args.limited}); "
                       "--limit N shows more")
        print(summary[-1])
    doc = report.document("diff", ruleset, list(dict.fromkeys(s.edition for s in built)), summary, written,
                          rules_text=getattr(args, "rules_text", None), coverage=coverage)
    _write(doc, args)
    if getattr(args, "json", None):
        _write(doc, argparse.Namespace(report_json=args.json), "--json")
    if getattr(args, "interrupted", False):
        raise KeyboardInterrupt  # everything found is printed and written: now exit as interrupted (130 or 143)
    return 1 if found or unchecked else 0


def _diff_sampled(args, ruleset, built, documents) -> tuple[list, list[str], dict[str, Any]]:
    """``diff`` on a sample (or the ``--scenario`` documents): the differences, the summary lines (printed), the
    report's ``coverage``."""
    sample = Sample()
    found = diff(ruleset, *built, scenarios=args.scenarios, seed=args.seed, max_runs=args.max_runs or 200,
                 limit=args.limit, skew=args.skew, draws=args.draws, documents=documents, sample=sample,
                 seconds=args.seconds)
    summary = [f"diff {ruleset.name}: {built[0].name} against {built[1].name}; {sample.describe()}"]
    reached = [s.name for s in ruleset.situations if s.name in sample.reached]
    summary.append(f"situations reached by the compared scenarios: {', '.join(reached) or 'none'}")
    unreached = sample.unreached(ruleset)
    if unreached:
        summary.append(f"situations never reached by the compared scenarios: {', '.join(unreached)}")
    if not found:
        summary.append(f"no difference found between {built[0].name} and {built[1].name} (none found within "
                       f"{sample.describe()})")
    for line in summary:
        print(line)
    counts = {k: getattr(sample, k) for k in ("drawn", "touched", "decisive", "compared", "too_large")}
    args.interrupted, args.limited = sample.interrupted, sample.limited
    return found, summary, report.coverage("given" if sample.given else "sample", sample.describe(), counts)


def rules_matrix(args) -> int:
    ruleset = _ruleset(args.ruleset or "momon-wonder")
    run = _run_report(args.report, ruleset.name) if args.report else None
    rows = matrix(ruleset, run)
    print(render_matrix(rows))
    gaps, within, counts = matrix_gaps(rows, args.report, fixture_editions(ruleset))
    summary = [f"rules --matrix {ruleset.name}" + (f": exercised counts from {args.report}" if args.report else "")]
    summary += gaps or [("every rule key has a bundled fixture" + (", was exercised and did not fail in the run"
                                                                     if args.report else "")
                         + f" (none found within {within})")]
    for line in summary[1:]:
        print(line)
    _write(report.document("rules --matrix", ruleset, [ruleset.default_edition], summary, [], matrix=rows,
                           coverage=report.coverage("table", within, counts)), args)
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
    """Add ``lint-rules``, ``diff`` and ``merge-stats`` to the CLI's subcommands."""
    p = commands.add_parser("lint-rules", help="for rules editors: contradictions, ambiguities and the rule-text lint")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition")
    p.add_argument("--option", action="append", metavar="NAME=VALUE")
    p.add_argument("--with", dest="with_", action="append", metavar="MODULE:ATTRIBUTE",
                   help="add an invariant (or a list) of this ruleset, or replace the one with its key; MODULE is "
                        "imported as --engine imports one (installed or on PYTHONPATH, else from the current "
                        "directory, said on stderr)")
    pages.add_options(p)
    p.add_argument("--without", action="append", metavar="KEY", help="drop a rule key for this run")
    p.add_argument("--rules-text", metavar="FILE", help="an editor's draft of the rule text (a regular UTF-8 file of "
                   f"at most {MAX_RULES_TEXT_BYTES // (1024 * 1024)} MiB), linted against the keys")
    p.add_argument("--scenario", action="append", metavar="FILE",
                   help="a hand-written scenario (or fixture) to enumerate instead of generated ones")
    p.add_argument("--scenarios", type=_at_least(0), default=40, help="generated scenarios to try (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--per-branch-point", type=_at_least(0), default=PER_POINT,
                   help="beyond --scenarios, draw small scenarios until each branch point of the text has been met "
                        f"by this many (default {PER_POINT}; 0: only --scenarios; none with --scenarios 0)")
    p.add_argument("--max-runs", type=_at_least(1), help="skip a scenario with more branches than this (default "
                   "200; 2000 with --exhaustive)")
    p.add_argument("--skew", type=_at_least(1.0, float), default=DEFAULT_SKEW,
                   help=f"how strongly generated scenarios are drawn small (default {DEFAULT_SKEW}; 1 = full size)")
    exhaustive_cli.add_lint_options(p)
    p.set_defaults(handler=lint_rules)

    p = commands.add_parser("diff", help="for rules editors: minimal scenarios whose required traces differ between "
                            "two editions, two values of an option, or a draft and the published rules")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", action="append", help="twice: compare two editions; once: the edition of the diff")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="two values of one option: compare them; otherwise the draft's option values")
    p.add_argument("--with", dest="with_", action="append", metavar="MODULE:ATTRIBUTE",
                   help="the draft adds an invariant (or a list), or replaces the one with its key (as lint-rules)")
    p.add_argument("--without", action="append", metavar="KEY", help="the draft drops a rule key")
    p.add_argument("--rules-text", metavar="FILE", help="an edited rule text: the keys of the sentences it changes "
                   "are reported stale and dropped from the draft (unless --with replaces them)")
    p.add_argument("--scenario", action="append", metavar="FILE",
                   help="a hand-written scenario (or fixture) to compare instead of generated ones")
    p.add_argument("--list-edits", action="store_true", help="list ready-made edits, each as its diff command line")
    p.add_argument("--scenarios", type=_at_least(0), default=60,
                   help="at most this many scenarios the change touches are enumerated (default 60)")
    p.add_argument("--draws", type=_at_least(0), default=2000,
                   help="small scenarios drawn and screened for the change (default 2000)")
    p.add_argument("--seconds", type=_at_least(1.0, float), default=45.0,
                   help="start no new comparison after this many seconds (default 45)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-runs", type=_at_least(1), help="skip a scenario with more branches than this (default "
                   f"200; {exhaustive.DEFAULT_MAX_RUNS} with --exhaustive)")
    p.add_argument("--skew", type=_at_least(1.0, float), default=DEFAULT_SKEW,
                   help=f"how strongly generated scenarios are drawn small (default {DEFAULT_SKEW}; 1 = full size); "
                   "lower skews and full size are drawn in turn too")
    p.add_argument("--limit", type=_at_least(1), default=1, help="how many differences to show (default 1)")
    pages.add_options(p)
    exhaustive_cli.add_diff_options(p)
    p.set_defaults(handler=diff_command)
    exhaustive_cli.add_parser(commands)
