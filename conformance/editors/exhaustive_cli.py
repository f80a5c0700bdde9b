"""The command lines of the exhaustive mode: ``lint-rules --exhaustive``, ``diff --exhaustive`` and ``merge-stats``
(wired by :mod:`conformance.editors.commands`). The work is :mod:`conformance.editors.exhaustive`'s and
:func:`conformance.editors.differ.diff_bounded`'s.

Exit codes as ``lint-rules``': 0 nothing found (an open reading an option names is reported, not a failure), 1 a
contradiction, a new ambiguity or a lint problem, 2 bad input (a bad ``--bound`` or ``--shard``, a statistics
document that does not match ``schemas/exhaustive-stats.schema.json``, shards of different runs).
"""

from __future__ import annotations

from typing import Any

from conformance.documents.json_io import DocumentError, read_json, validate, write_json
from conformance.editors import exhaustive, pages, report
from conformance.editors.bounded import Bound
from reference_engine.kernel.errors import ConformanceError


def bound_of(ruleset: str, text: str | None) -> Bound:
    """The bound ``--bound`` names for ``ruleset``: the ruleset's default bound with the dimensions given replaced.
    Raises ConformanceError for a bad ``--bound``."""
    base = exhaustive.default_bound(ruleset).text()
    try:
        return Bound.parse(base + ("," + text if text else ""))
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None


def refuse_alone(args) -> None:
    """Raise ConformanceError naming an option of the exhaustive mode given without ``--exhaustive``."""
    given = [f"--{name.replace('_', '-')}" for name in ("bound", "shard", "time_limit", "json")
             if getattr(args, name, None) is not None]
    if given:
        raise ConformanceError(f"{', '.join(given)} belong(s) to --exhaustive; add --exhaustive or leave it out")


def _stats_file(doc: dict[str, Any], path: str | None) -> list[str]:
    if not path:
        return []
    write_json(path, validate(doc, "exhaustive-stats", "the exhaustive statistics"))
    return [f"statistics written to {path}"]


def lint_exhaustive(args, ruleset, edition: str, invariants, options: dict[str, Any], problems: list[str],
                    text: str | None, notes: list[str], concerned: list[str]) -> int:
    """``lint-rules --exhaustive``: judge every scenario within the bound (``--bound``, ``--shard``, ``--time-limit``,
    ``--max-runs``), print the statistics and the findings as ``lint-rules`` prints them, write ``--json`` and the
    editor reports. Returns the exit code. Raises ConformanceError for a bad ``--bound`` or ``--shard``, or with
    ``--scenario`` (the exhaustive mode generates its own)."""
    if args.scenario:
        raise ConformanceError("--exhaustive enumerates its own scenarios; --scenario is for the sampled search")
    bound = bound_of(ruleset.name, args.bound)
    try:
        shard = exhaustive.parse_shard(args.shard)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None
    stats, _, findings = exhaustive.exhaust(ruleset, edition, invariants, bound, options=options, shard=shard,
                                            max_runs=args.max_runs or exhaustive.DEFAULT_MAX_RUNS,
                                            time_limit=args.time_limit)
    summary = [f"lint-rules {ruleset.name} {edition} --exhaustive: {len(invariants)} rule keys, every scenario "
               f"within {exhaustive.within(stats)}"]
    summary += exhaustive.lines(stats)
    for line in summary:
        print(line)
    for problem in problems:
        print(f"LINT  {problem}")
    for note in notes:
        print(f"TEXT  {note}")
    written = report.lint_findings(ruleset, edition, invariants, text, problems, notes, findings, concerned=concerned)
    for finding in written:
        if finding["kind"] in ("contradiction", "ambiguity"):
            print(pages.console(finding))
    found, closing = exhaustive.verdict(stats)
    summary.append(closing)
    print(closing)
    for line in _stats_file(stats, args.json):
        print(line)
    for line in pages.write(report.document("lint-rules", ruleset, [edition], summary, written, options=options,
                                            rules_text=args.rules_text, coverage=coverage(stats)), args):
        print(line)
    if (stats["stopped"] or {}).get("reason") == "interrupted":
        raise KeyboardInterrupt  # everything judged is printed and written: now exit as interrupted (130 or 143)
    return 1 if found or problems else 0


def diff_exhaustive(args, ruleset, sides) -> tuple[list, list[str], dict[str, Any]]:
    """``diff --exhaustive``: compare the two ``sides`` on every scenario within ``--bound`` (``--time-limit``,
    ``--max-runs``, ``--limit``), printing the statistics and the closing line. Returns (the differences, the
    summary lines, the report's ``coverage``). Raises ConformanceError for a bad ``--bound``, or with
    ``--scenario`` (the exhaustive mode generates its own)."""
    from conformance.editors.differ import diff_bounded

    if args.scenario:
        raise ConformanceError("--exhaustive enumerates its own scenarios; --scenario is for the sampled diff")
    bound = bound_of(ruleset.name, args.bound)
    found, coverage = diff_bounded(ruleset, *sides, bound, max_runs=args.max_runs or exhaustive.DEFAULT_MAX_RUNS,
                                   time_limit=args.time_limit, limit=args.limit)
    summary = [f"diff {ruleset.name} --exhaustive: {sides[0].name} against {sides[1].name}; every scenario within "
               f"{coverage.within()}", coverage.line()]
    if coverage.stopped is not None:
        summary.append(f"stopped by --time-limit {coverage.stopped:g} s after {coverage.visited} of the "
                       f"{coverage.distinct} distinct scenarios of the walk (the scenarios after it were not compared)")
    if found:
        summary.append(f"{len(found)} difference(s) shown, {coverage.differing} scenario(s) with differing required "
                       f"traces within {coverage.within()}")
    else:
        summary.append(f"no difference found between {sides[0].name} and {sides[1].name} (none found within "
                       f"{coverage.within()})")
    for line in summary:
        print(line)
    return found, summary, coverage.as_json()


def coverage(stats: dict[str, Any]) -> dict[str, Any]:
    """The editor report's ``coverage`` of an exhaustive run's statistics (:func:`exhaustive.exhaust`). A run a time
    limit stopped walked the bound only so far: its ``stopped`` has no total (``of`` null)."""
    counts = {"builds": stats["walk"]["builds"], "distinct": stats["walk"]["distinct"], **stats["scenarios"]}
    stopped = stats["stopped"]
    return {**report.coverage("bound", exhaustive.within(stats), counts, bound=dict(stats["bound"]),
                              exhausted=stats["exhausted"]),
            "seconds": stats["seconds"],
            "stopped": stopped and {"reason": stopped["reason"], "seconds": stopped["seconds"],
                                    "after": stopped["at_scenario"], "of": None}}


def merge_stats(args) -> int:
    """``merge-stats FILE...``: the statistics of the shards' documents combined, printed (and written with
    ``--json``). Returns 1 when they hold a contradiction or a new ambiguity, else 0. Raises ConformanceError for a
    file that is not a statistics document, or documents of different runs."""
    documents = []
    for path in args.files:
        try:
            documents.append(read_json(path, "exhaustive-stats"))
        except DocumentError as exc:
            raise ConformanceError(str(exc)) from None
    try:
        merged = exhaustive.merge(documents)
    except ValueError as exc:
        raise ConformanceError(str(exc)) from None
    print(f"merge-stats {merged['ruleset']} {merged['edition']}: {len(documents)} document(s), every scenario within "
          f"{exhaustive.within(merged)}")
    for line in exhaustive.lines(merged):
        print(line)
    for item in merged["findings"]:
        print(f"{item['kind'].upper()} at scenario {item['scenario']}: {item['key']}")
    found, closing = exhaustive.verdict(merged)
    print(closing)
    for line in _stats_file(merged, args.json):
        print(line)
    return 1 if found else 0


def _seconds(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def _add_bound(p) -> None:
    """``--bound``, with every ruleset's default bound in its help."""
    defaults = "; ".join(f"{name}: {bound}" for name, bound in exhaustive.DEFAULT_BOUNDS.items())
    p.add_argument("--bound", metavar="DIM=N,...", help="with --exhaustive: players, objects, abilities, actions, "
                   f"depth (answers other than the simplest), values (answers per question); defaults {defaults}")


def add_lint_options(p) -> None:
    """The exhaustive mode's options of ``lint-rules``."""
    p.add_argument("--exhaustive", action="store_true",
                   help="judge every scenario within --bound (symmetry-reduced) instead of a sample, with statistics")
    _add_bound(p)
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="with --exhaustive: start no scenario after this many seconds, and say how far it got")
    p.add_argument("--shard", metavar="I/N", help="with --exhaustive: judge only part I of N of the scenarios "
                   "(a fixed partition); combine the parts' --json with merge-stats")
    p.add_argument("--json", metavar="FILE", help="with --exhaustive: write the statistics here "
                   "(schemas/exhaustive-stats.schema.json)")


def add_diff_options(p) -> None:
    """The exhaustive mode's options of ``diff``."""
    p.add_argument("--exhaustive", action="store_true", help="compare the two sides on every scenario within "
                   "--bound (symmetry-reduced) instead of a sample, and say whether the bound was exhausted")
    _add_bound(p)
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="with --exhaustive: compare no scenario after this many seconds, and say how far it got")
    p.add_argument("--json", metavar="FILE", help="with --exhaustive: write the report here, its coverage (bound, "
                   "counts, exhausted) included (schemas/editor-report.schema.json; as --report-json)")


def add_parser(commands) -> None:
    """Add ``merge-stats`` to the CLI's subcommands."""
    p = commands.add_parser("merge-stats", help="for rules editors: combine the statistics of lint-rules "
                            "--exhaustive --shard I/N runs (their --json) into those of the whole bound")
    p.add_argument("files", nargs="+", metavar="FILE", help="statistics documents (lint-rules --exhaustive --json)")
    p.add_argument("--json", metavar="FILE", help="write the merged statistics here")
    p.set_defaults(handler=merge_stats)
