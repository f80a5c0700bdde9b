"""The ``trigger-conformance`` command.

Exit codes, the same for every subcommand: 0 all passed, 1 a rule (or fixture) failed or errored, 2 bad input or
usage (a malformed file, an unknown ruleset, option or engine).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.documents import dump_json, read_json, schema_names, validate
from conformance.errors import ConformanceError
from conformance.reports.text import audit_block, audit_row, describe_scenario, failure_block, rule_row, side_by_side
from conformance.session import RunSpec, Session, parse_option
from reference_engine.engines import reference_engine_for

PASSED, FAILED, BAD_INPUT, INTERRUPTED = 0, 1, 2, 130


# -- run ----------------------------------------------------------------------------------------------------------


class _Rows:
    """Prints one row per finished rule key or fixture as pytest reports it (works under pytest-xdist too)."""

    def __init__(self, results: Path, out):
        self.results = results
        self.out = out

    def pytest_runtest_logreport(self, report) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        name = report.nodeid.rsplit("[", 1)[-1].rstrip("]")
        kind = "rule" if "test_rule[" in report.nodeid else "audit" if "test_audit[" in report.nodeid else "fixture"
        path = self.results / f"{kind}-{name}.json"
        if not path.exists():
            print(f"ERROR {name:<34} the check did not finish: {report.longreprtext.strip()[:500]}", file=self.out)
            return
        entry = json.loads(path.read_text("utf-8"))
        if kind == "rule":
            print(rule_row(entry), file=self.out)
        elif kind == "audit":
            print(audit_row(entry), file=self.out)
        else:
            mark = {"passed": "PASS", "failed": "FAIL", "errored": "ERROR", "skipped": "SKIP"}[entry["status"]]
            print(f"{mark:5} fixture {entry['id']:<26} covers {', '.join(entry['rule_keys'])}", file=self.out)
        self.out.flush()


def _pytest_args(spec: RunSpec, results: Path, workers: int, junit_xml: str | None) -> list[str]:
    suite = Path(__file__).with_name("suite.py")
    ini = results / "pytest.ini"
    ini.write_text("[pytest]\n", "utf-8")  # keep a project's own pytest configuration out of the run
    args = [str(suite), "-c", str(ini), "--rootdir", str(results), "-p", "conformance.pytest_plugin",
            "-p", "no:cacheprovider", "-q", "--no-header", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            f"--conformance-spec={spec.to_json()}", f"--conformance-results-dir={results}"]
    if workers > 1:
        args += ["-n", str(workers)]
    else:
        args += ["-p", "no:xdist"]
    if junit_xml:
        args += [f"--junit-xml={junit_xml}", "-o", "junit_suite_name=trigger-conformance"]
    return args


def _output_file(path: str | None, option: str) -> None:
    """Fail before the run, not after it, when a report cannot be written where asked."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise ConformanceError(f"{option}: {path} is a folder; give a file name")
    if not target.parent.is_dir():
        raise ConformanceError(f"{option}: the folder {target.parent} does not exist")
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ConformanceError(f"{option}: cannot write {path}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    import pytest

    if args.engine_cmd is not None and args.engine != "reference":
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    if args.engine_cmd is not None and not args.engine_cmd.strip():
        raise ConformanceError("--engine-cmd is empty: give the command that starts the engine")
    _output_file(args.report_json, "--report-json")
    _output_file(args.junit_xml, "--junit-xml")
    seed = secrets.randbits(32) if args.seed == "random" else int(args.seed)
    engine = f"cmd:{args.engine_cmd}" if args.engine_cmd else args.engine
    spec = RunSpec(
        ruleset=args.ruleset, edition=args.edition, engine=engine,
        options=dict(parse_option(o) for o in args.option), max_examples=args.max_examples, seed=seed,
        database=args.database, failures_dir=args.failures_dir, rules=tuple(args.rules or ()),
        fixtures=not args.no_fixtures, shrink_seconds=args.shrink_seconds, engine_timeout=args.engine_timeout,
        engine_restarts=args.engine_restarts, audit=args.audit,
    )
    session = Session(spec)  # raises ConformanceError for a bad ruleset, edition, option, rule key or folder
    try:
        described = session.check_engine()
    finally:
        session.close()
    out = sys.stdout
    print(f"trigger-conformance {__version__}: {session.ruleset.name} {session.edition} on {described['name']} "
          f"{described['version']}, {spec.max_examples} scenarios per rule, seed {seed}", file=out)
    defaults = {option.name: option.default for option in session.ruleset.options}
    changed = {k: v for k, v in session.options.items() if v != defaults[k]}
    if changed:
        print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()), file=out)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trigger-conformance-") as folder:
        results = Path(folder)
        pytest_output = io.StringIO()
        with contextlib.redirect_stdout(pytest_output):
            code = pytest.main(_pytest_args(spec, results, args.workers, args.junit_xml), plugins=[_Rows(results, out)])
        rules = [json.loads(p.read_text("utf-8")) for p in sorted(results.glob("rule-*.json"))]
        fixtures = [json.loads(p.read_text("utf-8")) for p in sorted(results.glob("fixture-*.json"))]
        audits = [json.loads(p.read_text("utf-8")) for p in sorted(results.glob("audit-*.json"))]
    if code == pytest.ExitCode.INTERRUPTED:
        print("\ninterrupted: no report written", file=sys.stderr)
        return INTERRUPTED
    if code not in (0, 1) or len(rules) != len(session.rule_keys()):
        print(pytest_output.getvalue()[-4000:], file=sys.stderr)
        raise ConformanceError(f"the run stopped before every rule was checked (pytest exit code {int(code)})")
    order = {key: n for n, key in enumerate(session.rule_keys())}
    rules.sort(key=lambda r: order[r["key"]])
    report = _report(spec, session, described, rules, fixtures, time.monotonic() - started)
    if audits:
        report["audit"] = {k: v for k, v in audits[0].items() if k != "key"}
    if args.report_json:  # written before anything else is printed, so a closed stdout cannot lose it
        validate(report, "report", "the report being written")
        Path(args.report_json).write_text(dump_json(report), "utf-8")
    _print_summary(report, out, args.strict_exercise)
    if args.report_json:
        print(f"report written to {args.report_json}", file=out)
    summary = report["summary"]
    bad = sum(summary.get(k, 0) for k in ("rules_failed", "rules_errored", "fixtures_failed", "fixtures_errored"))
    if args.strict_exercise:
        bad += summary.get("rules_unexercised", 0) + summary.get("rules_skipped", 0)
    return FAILED if bad else PASSED


def _report(spec: RunSpec, session: Session, engine: dict[str, str], rules: list[dict], fixtures: list[dict],
            seconds: float) -> dict[str, Any]:
    summary: dict[str, int] = {}
    for prefix, items in (("rules", rules), ("fixtures", fixtures)):
        for item in items:
            summary[f"{prefix}_{item['status']}"] = summary.get(f"{prefix}_{item['status']}", 0) + 1
    return {
        "format": "trigger-conformance/report/1", "tool_version": __version__, "engine": engine,
        "ruleset": session.ruleset.name, "edition": session.edition, "options": session.options, "seed": spec.seed,
        "max_examples": spec.max_examples, "seconds": round(seconds, 2), "rules": rules, "fixtures": fixtures,
        "summary": summary,
    }


def _counted(n: int, key: str) -> str:
    """``3 rules passed``, ``1 fixture failed``."""
    what, status = key.split("_", 1)
    return f"{n} {what if n != 1 else what[:-1]} {status}"


def _print_summary(report: dict[str, Any], out, strict: bool = False) -> None:
    bad = [rule for rule in report["rules"] if rule["status"] in ("failed", "errored")]
    if bad:
        print(f"\n{len(bad)} rule(s) did not pass; each with its shrunk counterexample:", file=out)
    for rule in bad:
        print("", file=out)
        print(rule_row(rule), file=out)
        for line in failure_block(rule):
            print(line, file=out)
    for fixture in report["fixtures"]:
        if fixture["status"] in ("failed", "errored"):
            print(f"\n{fixture['status'].upper()} fixture {fixture['id']}", file=out)
            for message in fixture.get("messages", ())[:5]:
                print(f"      -> {message}", file=out)
    if report.get("audit", {}).get("divergence"):
        print("\n" + audit_row(report["audit"]), file=out)
        for line in audit_block(report["audit"]):
            print(line, file=out)
    never = [r["key"] for r in report["rules"] if r["status"] in ("unexercised", "skipped")]
    if never:
        consequence = ("so the run fails (--strict-exercise)" if strict else
                       "so their pass says nothing (raise --max-examples; --strict-exercise makes this fatal)")
        print(f"\n{'error' if strict else 'warning'}: {len(never)} rule(s) never applied in this run (or every "
              f"scenario was skipped), {consequence}: {', '.join(never)}", file=out)
    counts = ", ".join(_counted(n, k) for k, n in sorted(report["summary"].items()))
    print(f"\n{counts} in {report['seconds']} s", file=out)


# -- replay -------------------------------------------------------------------------------------------------------


def replay(args: argparse.Namespace) -> int:
    from conformance.adapters.registry import load_engine
    from conformance.checking import check_scenario, play, replay_for_determinism
    from conformance.scenarios import prepare_scenario

    document = read_json(args.file, "replay")
    ruleset, scenario = prepare_scenario(document["scenario"], f"{args.file} (scenario)")
    key = document["rule_key"]
    if document["ruleset"] != ruleset.name or document["edition"] != scenario["edition"]:
        raise ConformanceError(f"{args.file}: the file says {document['ruleset']} {document['edition']} but its "
                               f"scenario is {ruleset.name} {scenario['edition']}")
    if key not in {inv.key for inv in ruleset.invariants_for(scenario["edition"])}:
        raise ConformanceError(f"{args.file}: at $.rule_key: {ruleset.name} {scenario['edition']} has no rule key "
                               f"{key!r}")
    if args.engine and args.engine_cmd is not None:
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    spec = f"cmd:{args.engine_cmd}" if args.engine_cmd is not None else (args.engine or document["engine"]["spec"])
    engine = load_engine(spec, ruleset.name)
    try:
        try:
            info = engine.info
            supported = info.supports(ruleset.name, scenario["edition"])
        except ConformanceError:
            raise
        except Exception as exc:
            raise ConformanceError(f"engine {spec!r} could not say what it is: {type(exc).__name__}: {exc}") from None
        if not supported:
            raise ConformanceError(f"engine {info.name} {info.version} does not implement {ruleset.name} "
                                   f"{scenario['edition']} (it implements: {json.dumps(info.rulesets)})")
        checked = check_scenario(engine, scenario, ruleset.invariants_for(scenario["edition"]))
        print(f"replaying {args.file}: rule {key} [{document['rule_number']}] on {info.name} {info.version}")
        for line in describe_scenario(scenario):
            print("  " + line)
        expected = play(reference_engine_for(ruleset.name), scenario)
        for line in side_by_side(expected.trace, checked.outcome.trace):
            print(line)
        if checked.outcome.status != "trace":
            print(f"ERRORED: the engine answered {checked.outcome.status}: {checked.outcome.message}")
            return FAILED
        differs = replay_for_determinism(engine, scenario, 2, first=checked.outcome)
        if differs is not None:
            print(f"NONDETERMINISTIC: the engine answers this scenario differently each time: {differs.message}")
            return FAILED
        if key in checked.violations:
            print(f"STILL FAILING: {key}")
            for message in checked.violations[key]:
                print(f"  -> {message}")
            return FAILED
        others = sorted(checked.violations)
        print(f"FIXED: {key} now holds" + (f" (but {', '.join(others)} fail)" if others else ""))
        return FAILED if others else PASSED
    finally:
        try:
            engine.close()
        except Exception:
            pass


# -- rules, explain, options, validate --------------------------------------------------------------------------------


def _chosen_rulesets(name: str | None):
    from reference_engine.rulesets import RULESETS, get_ruleset

    if name is None:
        return list(RULESETS.values())
    try:
        return [get_ruleset(name)]
    except KeyError as exc:
        raise ConformanceError(f"--ruleset: {exc.args[0]}") from None


def list_rules(args: argparse.Namespace) -> int:
    for ruleset in _chosen_rulesets(args.ruleset):
        print(f"{ruleset.name}: {ruleset.title} (editions {', '.join(ruleset.editions)})")
        for inv in ruleset.invariants:
            numbers = ", ".join(f"{n} in {e}" for e, n in inv.rule_numbers.items())
            print(f"  {inv.key:<36} {numbers}\n      {inv.summary}")
    return PASSED


def explain(args: argparse.Namespace) -> int:
    import inspect

    from reference_engine.rulesets import RULESETS

    for ruleset in RULESETS.values():
        for inv in ruleset.invariants:
            if inv.key == args.key:
                print(f"{inv.key} ({ruleset.name}): {inv.summary}")
                for edition, number in inv.rule_numbers.items():
                    print(f"  rule {number} in edition {edition}")
                module = inspect.getmodule(inv.check)
                if module is not None and module.__doc__:
                    print("\nThe rule, in our words:\n  " + "\n  ".join(module.__doc__.strip().splitlines()))
                print(f"\nChecked by {module.__name__ if module else '?'}.{inv.check.__name__}. A failure names the "
                      f"witnesses in the trace; `trigger-conformance replay FILE` shows the expected and actual traces.")
                return PASSED
    raise ConformanceError(f"no rule key {args.key!r} (see `trigger-conformance rules`)")


def options(args: argparse.Namespace) -> int:
    for ruleset in _chosen_rulesets(args.ruleset):
        print(f"{ruleset.name}:")
        for option in ruleset.options:
            print(f"  {option.name} (default {json.dumps(option.default)}) stands for {option.stands_for}: {option.doc}")
            for value, meaning in option.values.items():
                print(f"      {json.dumps(value)}: {meaning}")
    return PASSED


def validate_file(args: argparse.Namespace) -> int:
    kind = args.kind
    if kind is None:  # say what it is from its "format" field
        try:
            fmt = json.loads(Path(args.file).read_text("utf-8")).get("format", "")
        except (OSError, ValueError, AttributeError, RecursionError):
            fmt = ""
        found = re.fullmatch(r"trigger-conformance/([a-z-]+)/\d+", fmt if isinstance(fmt, str) else "")
        kind = found.group(1) if found and found.group(1) in schema_names() else "scenario"
    args.kind = kind
    document = read_json(args.file, args.kind)
    if args.kind == "trace":
        from reference_engine.core.traceview import trace_structure_problems

        problems = trace_structure_problems(document["entries"])
        if problems:
            raise ConformanceError(f"{args.file} is not a valid trace:\n" + "\n".join(f"  {p}" for p in problems))
    if args.kind == "scenario":
        from conformance.scenarios import prepare_scenario

        prepare_scenario(document, args.file)
    elif args.kind == "fixture":
        from conformance.fixtures import load_fixture

        load_fixture(document, args.file)
    print(f"{args.file}: a valid {args.kind}")
    return PASSED


# -- selftest -----------------------------------------------------------------------------------------------------


def selftest_command(args: argparse.Namespace) -> int:
    from conformance.selftest import HEADER, mutant_names, selftest, summary_line, verdict_line

    names = mutant_names(args.mutant)
    process = mutant_names(args.process_mutant, "--process-mutant") if args.process_mutant else args.process
    if args.process_mutant and not set(process) <= set(names):
        raise ConformanceError(f"--process-mutant: {', '.join(sorted(set(process) - set(names)))} is not among the "
                               f"mutants being checked (--mutant)")
    seed = secrets.randbits(32) if args.seed == "random" else int(args.seed)
    print(f"trigger-conformance {__version__} selftest: the suite against each bundled mutant, "
          f"{args.max_examples} scenarios per rule, seed {seed}")
    print(HEADER)
    verdicts = selftest(names, args.max_examples, seed, process, progress=lambda v: print(verdict_line(v), flush=True),
                        seeds=args.seeds)
    print(summary_line(verdicts))
    if args.report_json:
        Path(args.report_json).write_text(json.dumps([v.as_dict() for v in verdicts], indent=2) + "\n", "utf-8")
        print(f"report written to {args.report_json}")
    return PASSED if all(v.ok for v in verdicts) else FAILED


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
    if text != "random" and not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 0 up, or 'random'")
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trigger-conformance", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("run", help="check an engine against every rule of a ruleset")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", help="rules edition (default: the ruleset's first listed)")
    p.add_argument("--engine", default="reference",
                   help="reference (default), mutant:NAME, an entry-point name, or module:attribute")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    p.add_argument("--engine-timeout", type=_seconds, metavar="SECONDS",
                   help="per-scenario timeout of a process engine (default 10)")
    p.add_argument("--engine-restarts", type=_natural, metavar="N",
                   help="how many times a process engine may be restarted within one rule (default 10)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a ruleset option")
    p.add_argument("--max-examples", type=_count, default=100, help="generated scenarios per rule (default 100)")
    p.add_argument("--seed", type=_seed, default="0", help="run seed, or 'random' (default 0)")
    p.add_argument("--report-json", metavar="FILE", help="write the JSON report here")
    p.add_argument("--failures-dir", default="trigger-conformance-failures", metavar="DIR",
                   help="where replay files of failures are written (default ./trigger-conformance-failures)")
    p.add_argument("--database", metavar="DIR", help="Hypothesis example database shared between runs and machines")
    p.add_argument("--workers", type=_count, default=1, help="parallel workers (pytest-xdist)")
    p.add_argument("--junit-xml", metavar="FILE", help="also write JUnit XML (one test case per rule key)")
    p.add_argument("--rules", nargs="+", metavar="KEY", help="check only these rule keys")
    p.add_argument("--no-fixtures", action="store_true", help="skip the golden scenarios")
    p.add_argument("--strict-exercise", action="store_true", help="fail when a rule never applied")
    p.add_argument("--shrink-seconds", type=_seconds, default=30.0,
                   help="time budget to shrink each failure (default 30)")
    p.add_argument("--audit", action="store_true",
                   help="also compare every scenario's outcome with the reference engine's and report divergences no "
                        "invariant explains (a gap in the judge, never a rule failure; does not change the exit code)")
    p.set_defaults(handler=run)

    p = commands.add_parser("replay", help="run a replay file again and say whether it still fails")
    p.add_argument("file")
    p.add_argument("--engine", help="engine spec (default: the one recorded in the file)")
    p.add_argument("--engine-cmd", help="replay against this process engine instead")
    p.set_defaults(handler=replay)

    p = commands.add_parser("rules", help="list rule keys with their rule numbers and paraphrases")
    p.add_argument("--ruleset")
    p.set_defaults(handler=list_rules)

    p = commands.add_parser("explain", help="what a rule key checks, in our words")
    p.add_argument("key")
    p.set_defaults(handler=explain)

    p = commands.add_parser("options", help="the documented assumptions of each ruleset, with their defaults")
    p.add_argument("--ruleset")
    p.set_defaults(handler=options)

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

    p = commands.add_parser("validate", help="validate a JSON document against its schema")
    p.add_argument("file")
    p.add_argument("--as", dest="kind", choices=schema_names(),
                   help="the kind of document (default: read from its 'format' field, else scenario)")
    p.set_defaults(handler=validate_file)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return BAD_INPUT if exc.code not in (0, None) else PASSED
    try:
        return args.handler(args)
    except ConformanceError as exc:
        print(f"trigger-conformance: {exc}", file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print("\ntrigger-conformance: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PASSED


if __name__ == "__main__":
    sys.exit(main())
