"""The ``trigger-conformance`` command.

Exit codes, the same for every subcommand: 0 all passed, 1 a rule (or fixture) failed or errored (an engine that
started but failed its handshake errors every rule, and every report is written), 2 bad input or usage (a malformed
file, an unknown ruleset, option or engine, an engine command that cannot be started at all), 130 or 143 interrupted
by SIGINT or SIGTERM (the partial reports, JUnit XML included, are written).
"""

from __future__ import annotations

DESCRIPTION = ("Check a card-game rules engine's triggered abilities against the rules of its game: generated "
               "scenarios and golden fixtures, each rule judged on the engine's trace. `trigger-conformance COMMAND "
               "--help` says what each command does and takes.")
EXIT_CODES = ("exit codes: 0 all passed, 1 a rule or fixture failed or errored, 2 bad input or usage, 130 or 143 "
              "interrupted by SIGINT or SIGTERM")

import argparse
import json
import math
import os
import re
import secrets
import sys

from conformance import __version__
from conformance.documents.json_io import schema_names, validate, write_atomically
from conformance.generation.profiles import joined_negative_durations
from conformance.running.interrupts import Interrupts, exit_code
from conformance.commands.play_commands import check_file, replay
from conformance.reports.text import TerminalStream
from conformance.commands.run_command import run
from conformance.running.session import RunSpec, Session, engine_spec, parse_option
from conformance.adapters.registry import did_you_mean
from reference_engine.kernel.errors import ConformanceError

PASSED, FAILED, BAD_INPUT = 0, 1, 2


# -- rules, explain, options, validate --------------------------------------------------------------------------------


def _chosen_rulesets(name: str | None):
    from reference_engine.kernel.registry import RULESETS, get_ruleset

    if name is None:
        return list(RULESETS.values())
    try:
        return [get_ruleset(name)]
    except KeyError as exc:
        raise ConformanceError(f"--ruleset: {exc.args[0]}{did_you_mean(name, RULESETS)}") from None


def list_rules(args: argparse.Namespace) -> int:
    from conformance.reports.text import rule_keys_markdown

    for ruleset in _chosen_rulesets(args.ruleset):
        if args.format == "markdown":
            print(f"<!-- rule-keys:{ruleset.name} -->")
            print("\n".join(rule_keys_markdown(ruleset)))
            print("<!-- /rule-keys -->")
            continue
        print(f"{ruleset.name}: {ruleset.title} (editions {', '.join(ruleset.editions)})")
        for inv in ruleset.invariants:
            numbers = ", ".join(f"{n} in {e}" for e, n in inv.rule_numbers.items())
            print(f"  {inv.key:<36} {numbers}\n      {inv.summary}")
    return PASSED


def explain(args: argparse.Namespace) -> int:
    import inspect

    from reference_engine.kernel.registry import RULESETS

    for ruleset in RULESETS.values():
        for inv in ruleset.invariants:
            if inv.key == args.key:
                print(f"{inv.key} ({ruleset.name}): {inv.summary}")
                for edition, number in inv.rule_numbers.items():
                    print(f"  rule {number} in edition {edition}")
                also = sorted(n for n, sentences in ruleset.sentences.items()
                              if n not in inv.rule_numbers.values() and any(inv.key in keys for _, keys in sentences))
                if also:
                    print(f"  also encodes, through their recorded sentences: {', '.join(also)}")
                module = inspect.getmodule(inv.check)
                if module is not None and module.__doc__:
                    print("\nThe rule, in our words:\n  " + "\n  ".join(module.__doc__.strip().splitlines()))
                print(f"\nChecked by {module.__name__ if module else '?'}.{inv.check.__name__}. A failure names the "
                      f"witnesses in the trace; `trigger-conformance replay FILE --engine SPEC` shows the expected and "
                      f"actual traces.")
                return PASSED
    known = [inv.key for ruleset in _chosen_rulesets(getattr(args, "ruleset", None)) for inv in ruleset.invariants]
    raise ConformanceError(f"no rule key {args.key!r}{did_you_mean(args.key, known)} (see `trigger-conformance rules`)")


def options(args: argparse.Namespace) -> int:
    for ruleset in _chosen_rulesets(args.ruleset):
        print(f"{ruleset.name}:")
        for option in ruleset.options:
            print(f"  {option.name} (default {json.dumps(option.default)}) stands for {option.stands_for}: {option.doc}")
            for value, meaning in option.values.items():
                print(f"      {json.dumps(value)}: {meaning}")
    return PASSED


def validate_file(args: argparse.Namespace) -> int:
    from conformance.documents.json_io import loads, read_bytes
    from conformance.documents.semantics import check_fixture_document, check_replay_document

    # Read once, safely (a regular file within the size cap, bounded JSON, no duplicate keys), then validate.
    document = loads(read_bytes(args.file), args.file)
    kind = args.kind
    if kind is None:  # say what it is from its "format" field
        fmt = document.get("format", "") if isinstance(document, dict) else ""
        found = re.fullmatch(r"trigger-conformance/([a-z-]+)/\d+", fmt if isinstance(fmt, str) else "")
        kind = found.group(1) if found and found.group(1) in schema_names() else "scenario"
    args.kind = kind
    validate(document, args.kind, args.file)
    if args.kind == "trace":
        from reference_engine.kernel.traceview import trace_structure_problems

        problems = trace_structure_problems(document["entries"])
        if problems:
            raise ConformanceError(f"{args.file} is not a valid trace:\n" + "\n".join(
                "  at " + re.sub(r"^entry (\d+): ", r"$.entries[\1]: ", p) for p in problems))
    if args.kind == "scenario":
        from conformance.documents.scenarios import prepare_scenario

        prepare_scenario(document, args.file)
    elif args.kind == "fixture":  # the same checks as `run` makes of a fixture
        check_fixture_document(document, args.file)
    elif args.kind == "replay":  # the same checks as `replay` makes of its file
        check_replay_document(document, args.file)
    print(f"{args.file}: a valid {args.kind}")
    return PASSED


# -- selftest -----------------------------------------------------------------------------------------------------


def coverage_command(args: argparse.Namespace) -> int:
    from conformance.running.coverage import derived_lines, derived_missed, goals_met, measure, report_lines
    from reference_engine.kernel.derived import derived_situations
    from reference_engine.kernel.registry import derived

    engine = engine_spec(args.engine, args.engine_cmd)
    seed = secrets.randbits(32) if args.seed == "random" else int(args.seed)
    spec = RunSpec(ruleset=args.ruleset, edition=args.edition, engine=engine,
                   options=dict(parse_option(o) for o in args.option), max_examples=args.max_examples, seed=seed,
                   explore_options=not args.fixed_options)
    session = Session(spec)
    try:
        described = session.check_engine()
        engine = session.new_engine()
        try:
            situations = derived(session.ruleset.name)
            found = measure(engine, session.run_config(),
                            session.ruleset.situations + derived_situations(situations))
        finally:
            engine.close()
    finally:
        session.close()
    print(f"trigger-conformance {__version__} coverage: {session.ruleset.name} {session.edition} on "
          f"{described['name']} {described['version']}, {spec.max_examples} scenarios, seed {seed}")
    for line in report_lines(found, session.ruleset.situations, session.ruleset.size_goals):
        print(line)
    for line in derived_lines(found, situations):
        print(line)
    missed = goals_met(found, session.ruleset.situations, session.ruleset.size_goals) + derived_missed(found, situations)
    if missed:
        print(f"\n{len(missed)} goal(s) missed:\n  " + "\n  ".join(missed))
    else:
        print("\nevery goal met")
    return FAILED if missed and args.check_goals else PASSED


def selftest_command(args: argparse.Namespace) -> int:
    from conformance.commands.selftest import HEADER, mutant_names, selftest, summary_line, verdict_line

    from conformance.commands.run_command import output_file, write_late

    output_file(args.report_json, "--report-json")
    names = mutant_names(args.mutant)
    process = mutant_names(args.process_mutant, "--process-mutant") if args.process_mutant else args.process
    if args.process_mutant and not set(process) <= set(names):
        raise ConformanceError(f"--process-mutant: {', '.join(sorted(set(process) - set(names)))} is not among the "
                               f"mutants being checked (--mutant)")
    seed = secrets.randbits(32) if args.seed == "random" else int(args.seed)
    print(f"trigger-conformance {__version__} selftest: the suite against each bundled mutant, "
          f"{args.max_examples} scenarios per rule, seed {seed}")
    generators = _check_generators(names, seed)
    print(HEADER)
    verdicts = selftest(names, args.max_examples, seed, process, progress=lambda v: print(verdict_line(v), flush=True),
                        seeds=args.seeds)
    print(summary_line(verdicts))
    text = json.dumps([v.as_dict() for v in verdicts], indent=2) + "\n"
    if not write_late("--report-json", args.report_json, lambda: write_atomically(args.report_json, text)):
        return FAILED
    if args.report_json:
        print(f"report written to {args.report_json}")
    return PASSED if all(v.ok for v in verdicts) and all(g.ok for g in generators) else FAILED


def _check_generators(names: list[str], seed: int) -> list:
    """Check (and print) the generator of each ruleset of the mutants ``names`` before them: a generator at fault is
    reported as such (conformance.generation.generator_check), not as an engine's failure."""
    from conformance.generation.generator_check import check_generator, verdict_lines
    from reference_engine.kernel.registry import MUTANTS

    generators = [check_generator(ruleset, seed=seed) for ruleset in dict.fromkeys(MUTANTS[n].ruleset for n in names)]
    for generator in generators:
        print("\n".join(verdict_lines(generator)), flush=True)
    return generators


def report_command(args: argparse.Namespace) -> int:
    """Render a run's JSON Lines stream (or JSON report) as Markdown, one self-contained HTML file, or JUnit XML."""
    from conformance.reports.render import RENDERERS, load
    from conformance.commands.run_command import output_file

    output_file(args.output, "--output")
    run = load(args.file)
    text = RENDERERS[args.format](run)
    if args.output:
        write_atomically(args.output, text)
        print(f"{args.format} report written to {args.output}")
    else:
        sys.stdout.write(text)
    return PASSED


# -- the parser ---------------------------------------------------------------------------------------------------


MAX_EXAMPLES = 10_000_000


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_EXAMPLES:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_EXAMPLES}")
    return value


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 1 up")
    return int(text)


def _natural(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 0 up")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _seed(text: str) -> str:
    if text != "random" and not (text.isdigit() and int(text) < 2 ** 64):
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 0 to 2**64 - 1, or 'random'")
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trigger-conformance", description=DESCRIPTION, epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    for add in (_add_run, _add_replay, _add_rules, _add_explain, _add_options, _add_coverage, _add_selftest,
                _add_check, _add_report, _add_validate, _add_trace_reference):
        add(commands)
    from conformance.editors.commands import add_parsers as add_editor_parsers

    add_editor_parsers(commands)
    _describe(commands)
    return parser


def _describe(commands) -> None:
    """Each subcommand's ``--help`` opens with what it does (its one line in the command list), and ``--ruleset``,
    wherever it is taken, says which rulesets there are."""
    from reference_engine.kernel.errors import ConformanceError
    from reference_engine.kernel.registry import units

    listed = {action.dest: action.help for action in commands._choices_actions}
    try:
        rulesets = ", ".join(sorted(units()))
    except ConformanceError:  # a broken installed unit: the command itself reports it in one line
        rulesets = "those installed (trigger-conformance rules lists them)"
    for name, sub in commands.choices.items():
        if not sub.description and listed.get(name):
            sub.description = listed[name][0].upper() + listed[name][1:] + "."
        for action in sub._actions:
            if "--ruleset" in action.option_strings and not action.help:
                default = f" (default {action.default})" if action.default else ""
                action.help = f"the ruleset: one of {rulesets}{default}"


def _add_run(commands) -> None:
    p = commands.add_parser("run", help="check an engine against every rule of a ruleset")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", help="rules edition (default: the ruleset's first listed)")
    p.add_argument("--engine",
                   help="reference (default), mutant:NAME, an entry-point name, or module:attribute")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    p.add_argument("--engine-timeout", type=_seconds, metavar="SECONDS",
                   help="per-scenario timeout of a process engine (default 10)")
    p.add_argument("--engine-restarts", type=_natural, metavar="N",
                   help="how many times a process engine may be restarted within one rule (default 10)")
    _max_trace_entries(p)
    _engine_memory(p)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a ruleset option")
    p.add_argument("--max-examples", type=_count, help="generated scenarios in the run's stream (default 100, or "
                                                         "the profile's)")
    p.add_argument("--seed", type=_seed, help="run seed, or 'random' (default 0, or the profile's); printed, and "
                                              "accepted back to repeat a run")
    p.add_argument("--profile", choices=["ci", "nightly"],
                   help="documented settings for what is not given: ci (100 scenarios, seed 0, 10 s shrinks, 10 min "
                        "budget) or nightly (20000 scenarios, random seed, 60 s shrinks, 5 h budget)")
    p.add_argument("--time-budget", metavar="DURATION",
                   help="finish within DURATION (90s, 10m, 1h30m): exploration stops at 80%% of it, then every rule "
                        "is concluded from what was explored and every report written")
    p.add_argument("--shard", metavar="I/N", help="check the i-th of n shares of the rule keys and fixtures (CI "
                                                  "jobs; the shards' verdicts together are one job's)")
    p.add_argument("--report-json", metavar="FILE", help="write the JSON report here")
    p.add_argument("--report-jsonl", metavar="FILE",
                   help="write the JSON Lines report: a header, one verdict per line flushed as soon as known, a "
                        "footer (an interrupted run keeps every verdict found); see `trigger-conformance report`")
    p.add_argument("--failures-dir", default="trigger-conformance-failures", metavar="DIR",
                   help="where replay files of failures are written (default ./trigger-conformance-failures)")
    p.add_argument("--database", metavar="DIR", help="Hypothesis example database shared between runs and machines")
    p.add_argument("--workers", type=_count, default=1, help="parallel workers (pytest-xdist)")
    p.add_argument("--junit-xml", metavar="FILE", help="also write JUnit XML (one test case per rule key)")
    p.add_argument("--rules", nargs="+", metavar="KEY", help="check only these rule keys (separated by spaces or "
                   "commas)")
    p.add_argument("--no-fixtures", action="store_true", help="skip the golden scenarios")
    p.add_argument("--strict-exercise", action="store_true", help="fail when a rule never applied")
    p.add_argument("--expectations", metavar="FILE",
                   help="the engine's expected failures, each with an issue URL: an expected failure does not fail "
                        "the run, an expected failure that passes does (strict); see conformance/documents/expectations.py")
    p.add_argument("--accept-skips", action="store_true",
                   help="do not fail a run in which the engine skipped every scenario, or most of them (by default "
                        "that is exit 1, 'nothing checked')")
    p.add_argument("--shrink-seconds", type=_seconds,
                   help="time budget to shrink each failure (default 30, or the profile's)")
    p.add_argument("--progress-interval", type=_seconds, default=30.0, metavar="SECONDS",
                   help="when the output is not a terminal, print a progress line this often (default 30); on a "
                        "terminal the progress line is live")
    p.add_argument("--fixed-options", action="store_true",
                   help="every option not given with --option keeps its default (by default each scenario draws the "
                        "value of every option not given, so every documented reading is explored)")
    p.add_argument("--audit", action="store_true",
                   help="also compare every scenario's outcome with the reference engine's and report divergences no "
                        "invariant explains (a gap in the judge, never a rule failure; does not change the exit code)")
    p.set_defaults(handler=run)



def _max_trace_entries(p) -> None:
    p.add_argument("--max-trace-entries", type=_positive, metavar="N",
                   help="the loop guard of the bundled engines (reference, mutant:NAME, and the reference engine "
                        "that shows expected traces): a play longer than N trace entries is an engine error "
                        "(default 20000)")


def _engine_memory(p) -> None:
    p.add_argument("--engine-memory", type=_natural, metavar="MB",
                   help="the cap on a process engine's data (RLIMIT_DATA), in MB: an engine that outgrows it is "
                        "out-of-memory, counted like a crash (default 2048; 0 for none)")


def _add_replay(commands) -> None:
    p = commands.add_parser("replay", help="run a replay file again and say whether it still fails")
    p.add_argument("file")
    p.add_argument("--engine", help="the engine to replay against: reference, mutant:NAME, an entry-point name or "
                                    "module:attribute")
    p.add_argument("--engine-cmd", help="replay against this process engine: 'PROGRAM ARGS'")
    _add_process_knobs(p, restarts=True)
    p.add_argument("--trust-file-engine", action="store_true",
                   help="run the engine the file names (a command or a module to import); without it, replay runs "
                        "only the engine given with --engine or --engine-cmd")
    _max_trace_entries(p)
    _engine_memory(p)
    p.set_defaults(handler=replay)



def _add_rules(commands) -> None:
    p = commands.add_parser("rules", help="list rule keys with their rule numbers and paraphrases")
    p.add_argument("--ruleset")
    p.add_argument("--format", choices=["text", "markdown"], default="text",
                   help="markdown: the table the docs of each ruleset embed (default: text)")
    p.add_argument("--matrix", action="store_true", help="rule key x invariant x fixtures x scenarios exercised")
    p.add_argument("--report", metavar="FILE", help="with --matrix: a run's JSON Lines stream (--report-jsonl, an "
                   "interrupted one too) or JSON report (--report-json), for the exercised counts")
    from conformance.editors.pages import add_options as add_editor_report_options

    add_editor_report_options(p)  # with --matrix: the matrix as JSON, Markdown or HTML
    p.set_defaults(handler=_rules_or_matrix)



def _add_explain(commands) -> None:
    p = commands.add_parser("explain", help="what a rule key checks, in our words")
    p.add_argument("key")
    p.set_defaults(handler=explain)



def _add_options(commands) -> None:
    p = commands.add_parser("options", help="the documented assumptions of each ruleset, with their defaults")
    p.add_argument("--ruleset")
    p.set_defaults(handler=options)



def _add_coverage(commands) -> None:
    p = commands.add_parser("coverage", help="how often a run's scenarios reach each situation the ruleset can express")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", help="rules edition (default: the ruleset's first listed)")
    p.add_argument("--engine", help="the engine whose traces are read (default: reference)")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="pin a ruleset option")
    p.add_argument("--fixed-options", action="store_true", help="options not given keep their defaults")
    p.add_argument("--max-examples", type=_count, default=1000, help="scenarios to explore (default 1000)")
    p.add_argument("--seed", type=_seed, default="0", help="run seed, or 'random' (default 0)")
    p.add_argument("--check-goals", action="store_true", help="exit 1 when a goal is missed")
    p.set_defaults(handler=coverage_command)



def _add_selftest(commands) -> None:
    p = commands.add_parser("selftest", help="check that the suite catches every bundled faulty engine (mutant)")
    p.add_argument("--mutant", action="append", metavar="NAME", help="only this mutant (repeatable; default: all)")
    p.add_argument("--max-examples", type=_count, default=100, help="generated scenarios per rule (default 100)")
    p.add_argument("--seed", type=_seed, default="0", help="run seed, or 'random' (default 0)")
    p.add_argument("--process", type=_natural, default=2, metavar="N",
                   help="run N mutants through the process protocol (reference server --mutant; default 2)")
    p.add_argument("--process-mutant", action="append", metavar="NAME",
                   help="run this mutant through the process protocol (repeatable; overrides --process)")
    p.add_argument("--seeds", type=_natural, default=0, metavar="N",
                   help="also measure each mutant's catch rate by its named rule key over N seeds (goal: 95%%)")
    p.add_argument("--report-json", metavar="FILE", help="write the verdicts as JSON here")
    p.set_defaults(handler=selftest_command)



def _add_check(commands) -> None:
    p = commands.add_parser("check", help="play one scenario or fixture file on an engine: every rule's verdict, "
                                          "the trace, and for a fixture the first observable difference")
    p.add_argument("file", help="a scenario (schemas/scenario.schema.json) or fixture (schemas/fixture.schema.json)")
    p.add_argument("--engine",
                   help="reference (default), mutant:NAME, an entry-point name, or module:attribute")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    _add_process_knobs(p, restarts=False)
    _max_trace_entries(p)
    _engine_memory(p)
    p.set_defaults(handler=check_file)


def _add_process_knobs(p, restarts: bool) -> None:
    """A process engine's timeout (and restart budget, for a command that plays a scenario more than once), as
    ``run`` takes them."""
    p.add_argument("--engine-timeout", type=_seconds, metavar="SECONDS",
                   help="per-scenario timeout of a process engine (default 10)")
    if restarts:
        p.add_argument("--engine-restarts", type=_natural, metavar="N",
                       help="how many times a process engine may be restarted (default 10)")



def _add_report(commands) -> None:
    p = commands.add_parser("report", help="render a run's JSON Lines stream (--report-jsonl) or JSON report")
    p.add_argument("file", help="the stream (.jsonl) or report (.json) of a run")
    p.add_argument("--format", choices=["markdown", "html", "junit"], default="markdown",
                   help="markdown (default), html (one self-contained file), junit (JUnit XML)")
    p.add_argument("--output", "-o", metavar="FILE", help="write it here (default: standard output)")
    p.set_defaults(handler=report_command)



def _add_validate(commands) -> None:
    p = commands.add_parser("validate", help="validate a JSON document against its schema")
    p.add_argument("file")
    p.add_argument("--as", dest="kind", choices=schema_names(),
                   help="the kind of document (default: read from its 'format' field, else scenario)")
    p.set_defaults(handler=validate_file)



def _add_trace_reference(commands) -> None:
    p = commands.add_parser("trace-reference", help="a ruleset's trace reference page (docs/trace/<ruleset>.md): "
                            "every trace entry, choice and option, each with a worked example")
    p.add_argument("--ruleset", required=True)
    p.add_argument("--write", action="store_true", help="rewrite docs/trace/<ruleset>.md in the current folder")
    p.set_defaults(handler=trace_reference_command)


def trace_reference_command(args) -> int:
    from pathlib import Path

    from conformance.commands import trace_reference

    try:
        text = trace_reference.page(args.ruleset)
    except KeyError as exc:
        print(f"trigger-conformance: {exc.args[0]}", file=sys.stderr)
        return BAD_INPUT
    if args.write:
        print(f"wrote {trace_reference.write(Path.cwd(), args.ruleset)}")
    else:
        print(text, end="")
    return PASSED


def _rules_or_matrix(args) -> int:
    if args.matrix:
        from conformance.editors.commands import rules_matrix

        return rules_matrix(args)
    return list_rules(args)


# The options naming a file a command writes, with their flags: checked before the command does its work.
OUTPUT_OPTIONS = (("json", "--json"), ("report_json", "--report-json"), ("report_markdown", "--report-markdown"),
                  ("report_html", "--report-html"), ("report_jsonl", "--report-jsonl"), ("junit_xml", "--junit-xml"),
                  ("output", "--output"))


def _outputs_writable(args: argparse.Namespace) -> None:
    """Refuse, before any work, an output file that cannot be written (its folder missing, a folder given, a place
    where no file can be created) or two outputs naming one file. Raises ConformanceError."""
    from conformance.commands.run_command import _distinct_outputs, output_file

    outputs = [(getattr(args, name, None), flag) for name, flag in OUTPUT_OPTIONS]
    outputs = [(path, flag) for path, flag in outputs if isinstance(path, str)]
    for path, flag in outputs:
        output_file(path, flag)
    _distinct_outputs(outputs)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(joined_negative_durations(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return BAD_INPUT if exc.code not in (0, None) else PASSED
    args.interrupts = interrupts = Interrupts()
    streams = sys.stdout, sys.stderr
    # Whatever a document or an engine wrote reaches the terminal as text: its control characters escaped.
    sys.stdout, sys.stderr = TerminalStream(sys.stdout), TerminalStream(sys.stderr)
    try:
        if args.handler is not run:  # run checks its own outputs (and falls back when one goes away mid-run)
            _outputs_writable(args)
        with interrupts:
            return args.handler(args)
    except ConformanceError as exc:
        print(f"trigger-conformance: {exc}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:  # a pipe closed outside the guarded streams (TerminalStream): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PASSED
    except OSError as exc:  # a report that could not be written after all (a full disk...): said, no traceback
        print(f"trigger-conformance: could not write {exc.filename or 'a file'}: {exc.strerror or exc}",
              file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print(f"\ntrigger-conformance: interrupted{f' by {interrupts.received}' if interrupts.received else ''}",
              file=sys.stderr)
        return exit_code(interrupts.received)
    finally:
        sys.stdout, sys.stderr = streams


if __name__ == "__main__":
    sys.exit(main())
