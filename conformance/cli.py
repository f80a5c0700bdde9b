"""The ``trigger-conformance`` command.

Exit codes, the same for every subcommand: 0 all passed, 1 a rule (or fixture) failed or errored (an engine that
started but failed its handshake errors every rule, and every report is written), 2 bad input or usage (a malformed
file, an unknown ruleset, option or engine, an engine command that cannot be started at all), 130 or 143 interrupted
by SIGINT or SIGTERM (the partial reports, JUnit XML included, are written).
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
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.documents import read_json, schema_names, validate, write_atomically, write_json
from reference_engine.kernel.errors import ConformanceError
from conformance.adapters.registry import did_you_mean
from conformance.reports.progress import Progress
from conformance.reports.text import (
    MARK, audit_block, audit_row, audit_summary, describe_entry, describe_scenario, not_passed,
    outcome_lines, rule_row, side_by_side, skip_summary, verdict_counts,
)
from conformance.session import RunSpec, Session, declined, parse_option, replay_command, report_document
from reference_engine.kernel.registry import reference_engine_for

PASSED, FAILED, BAD_INPUT, INTERRUPTED = 0, 1, 2, 130


# -- run ----------------------------------------------------------------------------------------------------------


_Progress = Progress  # what this module called it before conformance.reports.progress


class _Rows:
    """Prints one row per finished rule key or fixture as pytest reports it (works under pytest-xdist too), and the
    run's progress."""

    def __init__(self, results: Path, out, progress: _Progress | None = None):
        self.results = results
        self.out = out
        self.progress = progress
        self.unfinished: dict[str, str] = {}  # item name -> why (a bug in the suite: an exception in the check)

    def conformance_explored(self, played: int) -> None:
        """Called by the pytest plugin while the stream is explored."""
        if self.progress is not None:
            self.progress.explored(played)

    def pytest_runtest_logreport(self, report) -> None:
        if report.when != "call" and not (report.when == "setup" and report.failed):
            return
        name = report.nodeid.rsplit("[", 1)[-1].rstrip("]")
        kind = "rule" if "test_rule[" in report.nodeid else "audit" if "test_audit[" in report.nodeid else "fixture"
        path = self.results / f"{kind}-{name}.json"
        if self.progress is not None:
            self.progress.clear()
        if not path.exists():
            self.unfinished[name] = report.longreprtext.strip()[-4000:]
            print(f"ERROR {name:<34} the check did not finish: {report.longreprtext.strip()[:500]}", file=self.out)
            return
        entry = json.loads(path.read_text("utf-8"))
        if kind == "rule":
            print(rule_row(entry), file=self.out)
            if self.progress is not None:
                self.progress.concluded(entry["status"] == "failed")
        elif kind == "audit":
            print(audit_row(entry), file=self.out)
        else:
            mark = MARK[entry["status"]]
            print(f"{mark:5} fixture {entry['id']:<26} covers {', '.join(entry['rule_keys'])}", file=self.out)
        self.out.flush()
        if self.progress is not None and self.progress.live:
            self.progress.show(force=True)


def _pytest_args(spec: RunSpec, results: Path, workers: int, junit_xml: str | None,
                 report_jsonl: str | None = None) -> list[str]:
    ini = results / "pytest.ini"
    ini.write_text("[pytest]\n", "utf-8")  # keep a project's own pytest configuration out of the run
    # The run's own folder as the only path: nothing is collected there, and the plugin adds the suite's items
    # under the node id trigger-conformance/<ruleset> (JUnit classname trigger-conformance.<ruleset>).
    args = [str(results), "-c", str(ini), "--rootdir", str(results), "-p", "conformance.pytest_plugin",
            "-p", "no:cacheprovider", "-q", "--no-header", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            f"--conformance-spec={spec.to_json()}", f"--conformance-results-dir={results}",
            f"--basetemp={results / 'basetemp'}"]  # pytest's (and xdist's) temporary folders go with the run
    if workers > 1:
        args += ["-n", str(workers)]
    else:
        args += ["-p", "no:xdist"]
    if junit_xml:
        args += [f"--junit-xml={junit_xml}", "-o", "junit_suite_name=trigger-conformance"]
    if report_jsonl:
        args += [f"--trigger-report-jsonl={report_jsonl}"]
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
    # Checked without creating anything: the file is written once, whole (atomically), at the end of the run.
    if target.exists() and not (target.is_file() and os.access(target, os.W_OK)):
        raise ConformanceError(f"{option}: cannot write {path}: it is not a writable regular file")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise ConformanceError(f"{option}: cannot write in the folder {target.parent}")


def run(args: argparse.Namespace) -> int:
    import pytest

    if args.engine_cmd is not None and args.engine != "reference":
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    if args.engine_cmd is not None and not args.engine_cmd.strip():
        raise ConformanceError("--engine-cmd is empty: give the command that starts the engine")
    _output_file(args.report_json, "--report-json")
    _output_file(args.junit_xml, "--junit-xml")
    _output_file(args.report_jsonl, "--report-jsonl")
    from conformance.profiles import parse_duration, parse_shard, settings

    chosen = settings(args.profile, {"max_examples": args.max_examples, "seed": args.seed,
                                     "shrink_seconds": args.shrink_seconds,
                                     "time_budget": parse_duration(args.time_budget) if args.time_budget else None})
    seed = secrets.randbits(32) if chosen["seed"] == "random" else int(chosen["seed"])
    engine = f"cmd:{args.engine_cmd}" if args.engine_cmd else args.engine
    spec = RunSpec(
        ruleset=args.ruleset, edition=args.edition, engine=engine,
        options=dict(parse_option(o) for o in args.option), max_examples=chosen["max_examples"], seed=seed,
        database=args.database, failures_dir=args.failures_dir, rules=_rule_keys(args.rules),
        fixtures=not args.no_fixtures, shrink_seconds=chosen["shrink_seconds"], engine_timeout=args.engine_timeout,
        engine_restarts=args.engine_restarts, max_trace_entries=args.max_trace_entries, audit=args.audit,
        explore_options=not args.fixed_options,
        time_budget=chosen["time_budget"], shard=parse_shard(args.shard) if args.shard else None,
        expectations=args.expectations,
    )
    session = Session(spec)  # raises ConformanceError for a bad ruleset, edition, option, rule key or folder
    try:
        described = session.handshake()  # an engine that fails its handshake errors every rule (exit 1), not usage
    finally:
        session.close()
    out = sys.stdout
    if session.unavailable is not None:
        print(f"trigger-conformance: the engine failed its handshake ({session.unavailable['outcome']}): "
              f"{session.unavailable['message']}\nevery rule and fixture is reported errored with this problem",
              file=sys.stderr)
    print(f"trigger-conformance {__version__}: {session.ruleset.name} {session.edition} on {described['name']} "
          f"{described['version']}, {spec.max_examples} scenarios per rule, seed {seed} (repeat with --seed {seed})"
          + (f", shard {spec.shard[0]}/{spec.shard[1]}" if spec.shard else "")
          + (f", time budget {spec.time_budget:g} s" if spec.time_budget else ""), file=out)
    defaults = {option.name: option.default for option in session.ruleset.options}
    changed = {k: v for k, v in session.options.items() if v != defaults[k]}
    if changed:
        print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()), file=out)
    started = time.monotonic()
    interrupts = _INTERRUPTS[-1] if _INTERRUPTS else None
    code = pytest.ExitCode.INTERRUPTED
    with tempfile.TemporaryDirectory(prefix="trigger-conformance-") as folder:
        results = Path(folder)
        pytest_output = io.StringIO()
        progress = Progress(out, len(session.rule_keys()), spec.max_examples, args.progress_interval)
        rows = _Rows(results, out, progress)
        try:
            with contextlib.redirect_stdout(pytest_output):
                code = pytest.main(_pytest_args(spec, results, args.workers, args.junit_xml, args.report_jsonl)
                                   + ([f"--conformance-unavailable={json.dumps(session.unavailable)}"]
                                      if session.unavailable is not None else []), plugins=[rows])
        except KeyboardInterrupt:  # a signal outside pytest's own handling of it: what finished is still reported
            code = pytest.ExitCode.INTERRUPTED
        finally:
            progress.clear()
            if interrupts is not None:
                interrupts.kill_leftovers()  # workers and engines that outlived pytest (and their descendants)
        rules, fixtures, audits = (_entries(results, kind) for kind in ("rule", "fixture", "audit"))
        explored = _entries(results, "exploration")
    interrupted = (interrupts.received if interrupts is not None else None) or (
        "SIGINT" if code in (pytest.ExitCode.INTERRUPTED, 130) else "SIGTERM" if code == 143 else None)
    order = {key: n for n, key in enumerate(session.rule_keys())}
    rules = [r for r in rules if r.get("key") in order]
    done = {r["key"] for r in rules}
    if not interrupted:
        if code not in (0, 1):
            print(pytest_output.getvalue()[-4000:], file=sys.stderr)
            raise ConformanceError(f"the run stopped before every rule was checked (pytest exit code {int(code)})")
        # A check that raised (a bug in the suite) costs its rule only: the rule is reported errored, with why.
        for key in order:
            if key not in done:
                inv = session.ruleset.invariant(key)
                rules.append({"key": key, "rule_number": inv.rule_number(session.edition), "summary": inv.summary,
                              "status": "errored", "scenarios_run": 0, "scenarios_exercised": 0, "seconds": 0,
                              "check_error": rows.unfinished.get(key, "the check did not finish")})
    rules.sort(key=lambda r: order[r["key"]])
    report = _report(spec, session, described, rules, fixtures, time.monotonic() - started)
    if audits:
        report["audit"] = {k: v for k, v in audits[0].items() if k != "key"}
    if explored and explored[0].get("stopped"):  # the time budget ran out: how far the stream was explored
        report["stopped"] = {"by": explored[0]["stopped"], "scenarios_explored": explored[0].get("explored", 0)}
        print(f"\nthe {explored[0]['stopped']} stopped exploration after {explored[0].get('explored', 0)} of "
              f"{spec.max_examples} scenarios; every rule was concluded from those", file=out)
    if interrupted:  # a partial report: every verdict known so far, and what got none
        report["interrupted"] = interrupted
        checked = done | {f["id"] for f in fixtures}
        report["not_checked"] = [k for k in order if k not in checked] + [
            f.id for f in session.fixtures() if f.id not in checked]
    if args.report_json:  # written before anything else is printed, so a closed stdout cannot lose it
        validate(report, "report", "the report being written")
        write_json(args.report_json, report)  # atomically: a reader never sees half a report
    if interrupted and args.junit_xml:  # pytest wrote none (or one without what was not checked): every verdict
        # known (a failure found while exploring is a <failure>, unshrunk), and each rule not checked <skipped>
        from conformance.reports.render import from_report, junit

        write_atomically(args.junit_xml, junit(from_report(report, list(order))).encode("utf-8"))
    if interrupted:
        print(f"\ninterrupted by {interrupted}: {len(rules)} of {len(order)} rule(s) checked"
              + (f"; the partial report is in {args.report_json}" if args.report_json else "")
              + (f", the JUnit XML in {args.junit_xml}" if args.junit_xml else ""), file=sys.stderr)
        return _signal_exit_code(interrupted)
    _print_summary(report, out, args.strict_exercise, session.unavailable)
    if args.report_json:
        print(f"report written to {args.report_json}", file=out)
    summary = report["summary"]
    bad = sum(summary.get(k, 0) for k in ("rules_failed", "rules_errored", "fixtures_failed", "fixtures_errored"))
    bad += _expectations(report["rules"], session, out)
    if args.strict_exercise:
        bad += summary.get("rules_unexercised", 0) + summary.get("rules_skipped", 0)
    declined = _declined(report["rules"])
    if declined and not args.accept_skips:
        skipped, played = declined
        print(f"\nerror: nothing checked: the engine skipped {skipped} of the {played} scenarios it was given "
              f"({'all' if skipped == played else 'most'} of them), so these verdicts say little. Give it scenarios "
              f"it supports (its generation_profile), or accept this with --accept-skips.", file=out)
        bad += 1
    return FAILED if bad else PASSED


def _expectations(rules: list[dict], session: Session, out) -> int:
    """Print what the engine's expected failures and the suite's quarantine make of the verdicts; returns the change
    to the count of bad verdicts (an expected or quarantined failure does not count; an unexpected pass does)."""
    from conformance.expectations import judge

    change = 0
    for rule in rules:
        verdict = judge(rule, session.expected, session.quarantined)
        if verdict is None:
            continue
        known = session.quarantined.get(rule["key"]) if verdict == "quarantined" else session.expected[rule["key"]]
        if verdict == "unexpected-pass":
            change += 1
            print(f"error: {rule['key']} passed but is listed as an expected failure ({known.issue}): the "
                  f"expectation is stale, remove it (expected failures are strict)", file=out)
        else:
            change -= 1
            what = "quarantined by the suite" if verdict == "quarantined" else "expected failure"
            print(f"note: {rule['key']} failed: {what} ({known.issue}){': ' + known.reason if known.reason else ''}",
                  file=out)
    return change


_declined = declined


def _entries(results: Path, kind: str) -> list[dict]:
    """The report entries the items wrote (each atomically); anything unreadable is left out, never fatal."""
    entries = []
    for path in sorted(results.glob(f"{kind}-*.json" if kind != "exploration" else "exploration.json")):
        try:
            entries.append(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError):
            pass
    return entries


def _report(spec: RunSpec, session: Session, engine: dict[str, str], rules: list[dict], fixtures: list[dict],
            seconds: float) -> dict[str, Any]:
    return report_document(session, engine, rules, fixtures, seconds)


def _print_summary(report: dict[str, Any], out, strict: bool = False, unavailable: dict | None = None) -> None:
    if unavailable is not None:  # one problem, not one block per rule and fixture
        print(f"\nevery rule and fixture errored: the engine failed its handshake ({unavailable['outcome']}): "
              f"{unavailable['message']}", file=out)
        counts = verdict_counts(report["summary"])
        print(f"\n{counts} in {report['seconds']} s", file=out)
        return
    for line in not_passed(report["rules"]):  # failures with counterexamples, each engine problem once
        print(line, file=out)
    for fixture in report["fixtures"]:
        if fixture["status"] in ("failed", "errored"):
            print(f"\n{MARK[fixture['status']]:5} fixture {fixture['id']}", file=out)
            for message in fixture.get("messages", ())[:5]:
                print(f"      -> {message}", file=out)
    if report.get("audit"):  # what it audited, whether it found something or not
        print("\n" + audit_summary(report["audit"]), file=out)
        for line in audit_block(report["audit"]):
            print(line, file=out)
    never = [r["key"] for r in report["rules"] if r["status"] in ("unexercised", "skipped")]
    if never:
        consequence = ("so the run fails (--strict-exercise)" if strict else
                       "so their pass says nothing (raise --max-examples; --strict-exercise makes this fatal)")
        print(f"\n{'error' if strict else 'warning'}: {len(never)} rule(s) never applied in this run (or every "
              f"scenario was skipped), {consequence}: {', '.join(never)}", file=out)
    reasons = skip_summary(report["rules"])
    if reasons:
        print("", file=out)
        for line in reasons:
            print(line, file=out)
    counts = verdict_counts(report["summary"])
    print(f"\n{counts} in {report['seconds']} s", file=out)


# -- replay -------------------------------------------------------------------------------------------------------


def replay(args: argparse.Namespace) -> int:
    from conformance.adapters.registry import load_engine
    from conformance.checking import check_scenario, play, replay_for_determinism
    from conformance.semantics import check_replay_document

    document = read_json(args.file, "replay")
    ruleset, scenario, _ = check_replay_document(document, args.file)  # the same checks as `validate --as replay`
    key = document["rule_key"]
    if args.engine and args.engine_cmd is not None:
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    if args.engine is None and args.engine_cmd is None and not args.trust_file_engine:
        # A replay file is data: the engine it names (a command, a module to import) is run only when asked.
        raise ConformanceError(f"{args.file} names the engine {document['engine']['spec']!r}; replay runs no engine "
                               f"because a file says so. Say which engine to replay against:\n  "
                               f"{replay_command(args.file, document['engine']['spec'])}\n"
                               f"or add --trust-file-engine to run the one the file names")
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
            print(f"{MARK['errored']}: " + "\n".join(outcome_lines(checked.outcome)))
            return FAILED
        differs = replay_for_determinism(engine, scenario, 4, first=checked.outcome)  # more than two plays
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


def _rule_keys(values: list[str] | None) -> tuple[str, ...]:
    """The keys of ``--rules``, given separated by spaces (several arguments) or commas (``a,b``), in order, once."""
    keys = tuple(dict.fromkeys(key.strip() for value in values or () for key in value.split(",") if key.strip()))
    if values and not keys:
        raise ConformanceError("--rules: no rule key given (see `trigger-conformance rules`)")
    return keys


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
    from conformance.documents import loads, read_bytes
    from conformance.semantics import check_fixture_document, check_replay_document

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
        from conformance.scenarios import prepare_scenario

        prepare_scenario(document, args.file)
    elif args.kind == "fixture":  # the same checks as `run` makes of a fixture
        check_fixture_document(document, args.file)
    elif args.kind == "replay":  # the same checks as `replay` makes of its file
        check_replay_document(document, args.file)
    print(f"{args.file}: a valid {args.kind}")
    return PASSED


# -- selftest -----------------------------------------------------------------------------------------------------


def coverage_command(args: argparse.Namespace) -> int:
    from conformance.coverage import goals_met, measure, report_lines

    if args.engine_cmd is not None and args.engine != "reference":
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    seed = secrets.randbits(32) if args.seed == "random" else int(args.seed)
    engine_spec = f"cmd:{args.engine_cmd}" if args.engine_cmd else args.engine
    spec = RunSpec(ruleset=args.ruleset, edition=args.edition, engine=engine_spec,
                   options=dict(parse_option(o) for o in args.option), max_examples=args.max_examples, seed=seed,
                   explore_options=not args.fixed_options)
    session = Session(spec)
    try:
        described = session.check_engine()
        engine = session.new_engine()
        try:
            found = measure(engine, session.run_config(), session.ruleset.situations)
        finally:
            engine.close()
    finally:
        session.close()
    print(f"trigger-conformance {__version__} coverage: {session.ruleset.name} {session.edition} on "
          f"{described['name']} {described['version']}, {spec.max_examples} scenarios, seed {seed}")
    for line in report_lines(found, session.ruleset.situations):
        print(line)
    missed = goals_met(found, session.ruleset.situations)
    if missed:
        print(f"\n{len(missed)} goal(s) missed:\n  " + "\n  ".join(missed))
    else:
        print("\nevery goal met")
    return FAILED if missed and args.check_goals else PASSED


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
        write_atomically(args.report_json, json.dumps([v.as_dict() for v in verdicts], indent=2) + "\n")
        print(f"report written to {args.report_json}")
    return PASSED if all(v.ok for v in verdicts) else FAILED


def check_file(args: argparse.Namespace) -> int:
    """Play one scenario or fixture file on an engine: the verdict of every rule, the trace, and for a fixture the
    first observable difference from its expected trace."""
    from conformance.adapters.registry import load_engine
    from conformance.checking import check_scenario
    from conformance.documents import loads, read_bytes
    from conformance.fixtures import observable_difference
    from conformance.scenarios import prepare_scenario
    from conformance.semantics import check_fixture_document
    from reference_engine.kernel.registry import get_ruleset

    if args.engine_cmd is not None and args.engine != "reference":
        raise ConformanceError("give either --engine or --engine-cmd, not both")
    document = loads(read_bytes(args.file), args.file)
    is_fixture = isinstance(document, dict) and str(document.get("format", "")).startswith(
        "trigger-conformance/fixture/")
    if is_fixture:
        fixture = check_fixture_document(document, args.file)  # the checks `run` makes of a fixture
        scenario = fixture.scenario
    else:
        _, scenario = prepare_scenario(document, args.file)
    ruleset = get_ruleset(scenario["ruleset"])
    spec = f"cmd:{args.engine_cmd}" if args.engine_cmd is not None else args.engine
    engine = load_engine(spec, ruleset.name, args.engine_timeout)
    try:
        try:
            supported = engine.info.supports(ruleset.name, scenario["edition"])
        except ConformanceError:
            raise
        except Exception as exc:
            raise ConformanceError(f"engine {spec!r} could not say what it is: {type(exc).__name__}: {exc}") from None
        if not supported:
            raise ConformanceError(f"engine {engine.info.name} {engine.info.version} does not implement "
                                   f"{ruleset.name} {scenario['edition']} (it implements: "
                                   f"{json.dumps(engine.info.rulesets)})")
        invariants = ruleset.invariants_for(scenario["edition"])
        checked = check_scenario(engine, scenario, invariants)
        info = engine.info
        print(f"{args.file}: {'fixture ' + fixture.id if is_fixture else 'scenario'}, {ruleset.name} "
              f"{scenario['edition']}, on {info.name} {info.version}")
        for line in describe_scenario(scenario):
            print("  " + line)
        outcome = checked.outcome
        bad = outcome.status != "trace"
        if bad:
            print("\n" + "\n".join(outcome_lines(outcome)))  # with where it raised, and its stderr
        else:
            print("\nverdict of every rule:")
            for inv in invariants:
                if inv.key in checked.check_errors:
                    mark, note = "ERROR", "the check raised: " + checked.check_errors[inv.key].strip().splitlines()[-1]
                elif inv.key in checked.violations:
                    mark, note = "FAIL", ""
                elif checked.exercised.get(inv.key, 0) > 0:
                    mark, note = "PASS", ""
                else:
                    mark, note = "N/A", "did not apply to this scenario"
                print(f"  {mark:5} {inv.key:<34} [{inv.rule_number(scenario['edition'])}] {note}".rstrip())
                for message in checked.violations.get(inv.key, ()):
                    print(f"        -> {message}")
            bad = bool(checked.violations or checked.check_errors)
            print("\ntrace:")
            for n, entry in enumerate(outcome.trace["entries"]):
                print(f"  {n:>3} {describe_entry(entry)}")
        if is_fixture and outcome.status == "trace":
            where = observable_difference(scenario, fixture.expected_trace, outcome.trace)
            print("\nobservable outcome (what the rules observe: events, resolutions in order, removals and why, "
                  "triggers left waiting, steps): " + ("as expected" if where is None else
                                                       f"first difference at {where}"))
            if where is not None:
                lines = side_by_side(fixture.expected_trace, outcome.trace)
                lines[0] = lines[0].replace("expected (reference engine)", "expected (the fixture)     ")
                for line in lines:
                    print(line)
                bad = True
        if is_fixture:
            print(f"\nfixture {fixture.id}: {MARK['failed' if bad else 'passed']}")
    finally:
        try:
            engine.close()
        except Exception:
            pass
    return FAILED if bad else PASSED


def report_command(args: argparse.Namespace) -> int:
    """Render a run's JSON Lines stream (or JSON report) as Markdown, one self-contained HTML file, or JUnit XML."""
    from conformance.reports.render import RENDERERS, load

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
    p.add_argument("--max-trace-entries", type=_positive, metavar="N",
                   help="the loop guard of the bundled engines (reference, mutant:NAME, and the reference engine "
                        "that shows expected traces): a play longer than N trace entries is an engine error "
                        "(default 20000)")
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
                        "the run, an expected failure that passes does (strict); see conformance/expectations.py")
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

    p = commands.add_parser("replay", help="run a replay file again and say whether it still fails")
    p.add_argument("file")
    p.add_argument("--engine", help="the engine to replay against: reference, mutant:NAME, an entry-point name or "
                                    "module:attribute")
    p.add_argument("--engine-cmd", help="replay against this process engine: 'PROGRAM ARGS'")
    p.add_argument("--trust-file-engine", action="store_true",
                   help="run the engine the file names (a command or a module to import); without it, replay runs "
                        "only the engine given with --engine or --engine-cmd")
    p.set_defaults(handler=replay)

    p = commands.add_parser("rules", help="list rule keys with their rule numbers and paraphrases")
    p.add_argument("--ruleset")
    p.add_argument("--format", choices=["text", "markdown"], default="text",
                   help="markdown: the table the docs of each ruleset embed (default: text)")
    p.add_argument("--matrix", action="store_true", help="rule key x invariant x fixtures x scenarios exercised")
    p.add_argument("--report", metavar="FILE", help="with --matrix: a run's JSON Lines stream (--report-jsonl, an "
                   "interrupted one too) or JSON report (--report-json), for the exercised counts")
    p.set_defaults(handler=_rules_or_matrix)

    p = commands.add_parser("explain", help="what a rule key checks, in our words")
    p.add_argument("key")
    p.set_defaults(handler=explain)

    p = commands.add_parser("options", help="the documented assumptions of each ruleset, with their defaults")
    p.add_argument("--ruleset")
    p.set_defaults(handler=options)

    p = commands.add_parser("coverage", help="how often a run's scenarios reach each situation the ruleset can express")
    p.add_argument("--ruleset", default="momon-wonder")
    p.add_argument("--edition", help="rules edition (default: the ruleset's first listed)")
    p.add_argument("--engine", default="reference", help="the engine whose traces are read (default: reference)")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="pin a ruleset option")
    p.add_argument("--fixed-options", action="store_true", help="options not given keep their defaults")
    p.add_argument("--max-examples", type=_count, default=1000, help="scenarios to explore (default 1000)")
    p.add_argument("--seed", type=_seed, default="0", help="run seed, or 'random' (default 0)")
    p.add_argument("--check-goals", action="store_true", help="exit 1 when a goal is missed")
    p.set_defaults(handler=coverage_command)

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

    p = commands.add_parser("check", help="play one scenario or fixture file on an engine: every rule's verdict, "
                                          "the trace, and for a fixture the first observable difference")
    p.add_argument("file", help="a scenario (schemas/scenario.schema.json) or fixture (schemas/fixture.schema.json)")
    p.add_argument("--engine", default="reference",
                   help="reference (default), mutant:NAME, an entry-point name, or module:attribute")
    p.add_argument("--engine-cmd", help="a process engine speaking the JSON-lines protocol: 'PROGRAM ARGS'")
    p.add_argument("--engine-timeout", type=_seconds, metavar="SECONDS", help="timeout of a process engine")
    p.set_defaults(handler=check_file)

    p = commands.add_parser("report", help="render a run's JSON Lines stream (--report-jsonl) or JSON report")
    p.add_argument("file", help="the stream (.jsonl) or report (.json) of a run")
    p.add_argument("--format", choices=["markdown", "html", "junit"], default="markdown",
                   help="markdown (default), html (one self-contained file), junit (JUnit XML)")
    p.add_argument("--output", "-o", metavar="FILE", help="write it here (default: standard output)")
    p.set_defaults(handler=report_command)

    p = commands.add_parser("validate", help="validate a JSON document against its schema")
    p.add_argument("file")
    p.add_argument("--as", dest="kind", choices=schema_names(),
                   help="the kind of document (default: read from its 'format' field, else scenario)")
    p.set_defaults(handler=validate_file)
    from conformance.editors.commands import add_parsers as add_editor_parsers

    add_editor_parsers(commands)
    return parser


def _rules_or_matrix(args) -> int:
    if args.matrix:
        from conformance.editors.commands import rules_matrix

        return rules_matrix(args)
    return list_rules(args)


class _Interrupts:
    """SIGINT and SIGTERM during a command: both stop it the way Ctrl-C does (a KeyboardInterrupt, once), so that
    engines are killed, workers stopped, temporary folders removed and a partial report written; the exit code is
    then 128 + the signal number (130, 143).

    While it is active, ``RUN_TOKEN`` in the environment marks every process the command starts (pytest-xdist
    workers, engines, and whatever they start), so that :meth:`kill_leftovers` finds what outlived the run wherever
    it went. A signal is forwarded to the workers as SIGINT, so that they stop their engines and exit at once.
    """

    def __init__(self):
        self.received: str | None = None
        self.token = secrets.token_hex(12)
        self._previous: dict[int, Any] = {}
        self._environ: str | None = None

    def __enter__(self) -> "_Interrupts":
        from conformance.adapters.process import RUN_TOKEN

        self._environ = os.environ.get(RUN_TOKEN)
        os.environ[RUN_TOKEN] = self.token
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self._previous[signum] = signal.signal(signum, self._handle)
            except (ValueError, OSError):  # not the main thread: signals keep their default meaning
                pass
        _INTERRUPTS.append(self)
        return self

    def _handle(self, signum, frame) -> None:
        first = self.received is None
        if first:
            self.received = signal.Signals(signum).name
        self._forward()
        if first:
            raise KeyboardInterrupt(self.received)

    def _forward(self) -> None:
        from conformance.adapters.process import RUN_TOKEN, tagged_processes

        for pid in tagged_processes(RUN_TOKEN, self.token):
            try:
                os.kill(pid, signal.SIGINT)
            except OSError:
                pass

    def kill_leftovers(self) -> None:
        """Give the processes of this run a moment to exit, then SIGKILL what is left of them."""
        from conformance.adapters.process import RUN_TOKEN, kill_tagged, tagged_processes

        if not self.received:  # a run that ended normally closed its engines (and their descendants) itself
            return
        deadline = time.monotonic() + 2.0  # workers stop their own engines; one that ignores signals is killed
        while tagged_processes(RUN_TOKEN, self.token) and time.monotonic() < deadline:
            time.sleep(0.05)
        kill_tagged(RUN_TOKEN, self.token)

    def __exit__(self, *exc) -> None:
        from conformance.adapters.process import RUN_TOKEN

        _INTERRUPTS.remove(self)
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        if self._environ is None:
            os.environ.pop(RUN_TOKEN, None)
        else:
            os.environ[RUN_TOKEN] = self._environ
        self.kill_leftovers()


_INTERRUPTS: list[_Interrupts] = []


def _signal_exit_code(name: str | None) -> int:
    return 128 + signal.Signals[name].value if name else INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return BAD_INPUT if exc.code not in (0, None) else PASSED
    interrupts = _Interrupts()
    try:
        with interrupts:
            return args.handler(args)
    except ConformanceError as exc:
        print(f"trigger-conformance: {exc}", file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print(f"\ntrigger-conformance: interrupted{f' by {interrupts.received}' if interrupts.received else ''}",
              file=sys.stderr)
        return _signal_exit_code(interrupts.received)
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PASSED


if __name__ == "__main__":
    sys.exit(main())
