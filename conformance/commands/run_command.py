"""``trigger-conformance run``: check an engine against every rule of a ruleset.

The command builds the run's :class:`~conformance.running.session.Session` (one handshake with the engine) and its
:class:`~conformance.running.recorder.RunRecorder`, and hands both, live, to pytest with the suite's plugin
(:mod:`conformance.running.pytest_plugin`): pytest runs one item per rule and per fixture, on pytest-xdist workers with
``--workers N``, and each verdict comes back to the recorder, which prints its row. The command then writes the JSON
report and prints the summary; what fails the run besides its verdicts is the recorder's to say.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conformance import __version__
from conformance.running.interrupts import exit_code
from conformance.running.recorder import RunRecorder, never_applied, nothing_checked, unexercised_advice
from conformance.generation.profiles import empty_shard
from conformance.reports.progress import Progress
from conformance.reports.text import (
    EXPECTED, MARK, audit_block, audit_summary, expected_apart, not_passed, skip_summary, verdict_counts,
)
from conformance.running.session import RunSpec, Session, engine_spec, parse_option
from reference_engine.kernel.errors import ConformanceError

PASSED, FAILED = 0, 1


def run(args: argparse.Namespace) -> int:
    """The ``run`` command (``args.interrupts``: the command's :class:`~conformance.running.interrupts.Interrupts`)."""
    outputs = ((args.report_json, "--report-json"), (args.junit_xml, "--junit-xml"),
               (args.report_jsonl, "--report-jsonl"))
    for path, option in outputs:
        output_file(path, option)
    _distinct_outputs(outputs)
    started = time.time()  # the run's seconds count the handshake too (a hanging one takes its whole timeout)
    session = Session(_spec(args))  # raises ConformanceError for a bad ruleset, edition, option, rule key or folder
    for warning in session.warnings:
        print(f"trigger-conformance: warning: {warning}", file=sys.stderr)
    try:
        try:
            described = session.handshake()  # an engine that fails its handshake errors every rule (exit 1), not usage
        except KeyboardInterrupt:  # a signal during the handshake: the partial reports all the same, nothing checked
            return _interrupted_at_handshake(args, session, started)
        _print_header(session, described)
        progress = Progress(getattr(sys.stdout, "raw", sys.stdout), len(session.rule_keys()), session.spec.max_examples,
                            args.progress_interval)
        recorder = RunRecorder(session, described, args.report_jsonl, sys.stdout, progress, started)
        return _conclude(args, recorder, _run_pytest(args, recorder))
    finally:
        session.close()


def _interrupted_at_handshake(args: argparse.Namespace, session: Session, started: float) -> int:
    """A run interrupted (SIGINT, SIGTERM) before its engine finished its handshake: every report asked for is still
    written, each rule and fixture in it not checked (interrupted), and the exit code is the signal's."""
    interrupts = getattr(args, "interrupts", None)
    recorder = RunRecorder(session, {"name": "(no handshake)", "version": "?", "spec": session.spec.engine},
                           args.report_jsonl, sys.stdout, None, started)
    recorder.interrupted = (interrupts.received if interrupts is not None else None) or "SIGINT"
    print(f"trigger-conformance: {recorder.interrupted} came during the engine's handshake: nothing was checked",
          file=sys.stderr)
    recorder.start()
    recorder.finish(interrupted=True)
    return _conclude(args, recorder, (int(exit_code(recorder.interrupted)), ""))


def _spec(args: argparse.Namespace) -> RunSpec:
    from conformance.generation.profiles import parse_duration, parse_shard, settings

    engine = engine_spec(args.engine, args.engine_cmd)
    chosen = settings(args.profile, {"max_examples": args.max_examples, "seed": args.seed,
                                     "shrink_seconds": args.shrink_seconds,
                                     "time_budget": parse_duration(args.time_budget) if args.time_budget else None})
    return RunSpec(
        ruleset=args.ruleset, edition=args.edition, engine=engine,
        options=dict(parse_option(o) for o in args.option), max_examples=chosen["max_examples"],
        seed=secrets.randbits(32) if chosen["seed"] == "random" else int(chosen["seed"]),
        database=args.database, failures_dir=args.failures_dir, rules=rule_keys(args.rules),
        fixtures=not args.no_fixtures, shrink_seconds=chosen["shrink_seconds"], engine_timeout=args.engine_timeout,
        engine_restarts=args.engine_restarts, max_trace_entries=args.max_trace_entries,
        engine_memory=args.engine_memory, audit=args.audit,
        explore_options=not args.fixed_options,
        time_budget=chosen["time_budget"], shard=parse_shard(args.shard) if args.shard else None,
        expectations=args.expectations,
    )


def rule_keys(values: list[str] | None) -> tuple[str, ...]:
    """The keys of ``--rules``, given separated by spaces (several arguments) or commas (``a,b``), in order, once."""
    keys = tuple(dict.fromkeys(key.strip() for value in values or () for key in value.split(",") if key.strip()))
    if values and not keys:
        raise ConformanceError("--rules: no rule key given (see `trigger-conformance rules`)")
    return keys


def output_file(path: str | None, option: str) -> None:
    """Fail before the run, not after it, when a report cannot be written where asked: a file is really created in
    its folder (and removed), since permission bits say nothing of what root can create (in /proc, say), and an
    existing file is opened for appending (nothing is written to it)."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise ConformanceError(f"{option}: {path} is a folder; give a file name")
    if not target.parent.is_dir():
        if target.parent.exists():
            raise ConformanceError(f"{option}: {target.parent} is a file, not a folder")
        raise ConformanceError(f"{option}: the folder {target.parent} does not exist")
    if target.exists() and not target.is_file():
        raise ConformanceError(f"{option}: cannot write {path}: it is not a regular file")
    try:
        if target.exists():
            with open(target, "ab"):
                pass
        # The reports are written atomically (a temporary file beside the report, then renamed), so the folder
        # must take a new file.
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".trigger-conformance-probe-"):
            pass
    except OSError as exc:
        where = f"{path}" if target.exists() else f"in the folder {target.parent}"
        raise ConformanceError(f"{option}: cannot write {where}: {exc.strerror or exc}") from None


def _distinct_outputs(outputs) -> None:
    """Refuse two reports named to the same file (the second would overwrite the first)."""
    seen: dict[str, str] = {}
    for path, option in outputs:
        if path is None:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise ConformanceError(f"{seen[real]} and {option} both name {path}: give each report its own file")
        seen[real] = option


def write_late(option: str, path: str | None, write) -> bool:
    """Write one report at the end of the run with ``write()``; a failure (the folder went away, the disk is full)
    is one line on stderr, not a traceback, and the other reports are still written. Returns whether it was."""
    if not path:
        return True
    try:
        write()
    except OSError as exc:
        print(f"trigger-conformance: error: {option} {path} could not be written: {exc.strerror or exc}"
              f"{' (' + exc.filename + ')' if getattr(exc, 'filename', None) and exc.filename != path else ''}",
              file=sys.stderr)
        return False
    return True


def _print_header(session: Session, described: dict[str, str]) -> None:
    spec, out = session.spec, sys.stdout
    if session.unavailable is not None:
        print(f"trigger-conformance: the engine failed its handshake ({session.unavailable['outcome']}): "
              f"{session.unavailable['message']}\nevery rule and fixture is reported errored with this problem",
              file=sys.stderr)
    print(f"trigger-conformance {__version__}: {session.ruleset.name} {session.edition} on {described['name']} "
          f"{described['version']}, {spec.max_examples} scenarios per rule, seed {spec.seed} (repeat with --seed "
          f"{spec.seed})" + (f", shard {spec.shard[0]}/{spec.shard[1]}" if spec.shard else "")
          + (f", time budget {spec.time_budget:g} s" if spec.time_budget else ""), file=out)
    defaults = {option.name: option.default for option in session.ruleset.options}
    changed = {k: v for k, v in session.options.items() if v != defaults[k]}
    if changed:
        print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()), file=out)


def _run_pytest(args: argparse.Namespace, recorder: RunRecorder) -> tuple[int, str]:
    """Run the suite's items under pytest, the recorder handed to its plugin; returns pytest's exit code and its
    output (kept for when the run stops early)."""
    import pytest

    interrupts = getattr(args, "interrupts", None)
    code = pytest.ExitCode.INTERRUPTED
    output = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="trigger-conformance-") as folder:
        # pytest writes the JUnit XML in the run's own folder; it is then copied where asked (_deliver_junit), so
        # that a destination that cannot be written is one line of error, not a traceback that loses the others.
        junit = str(Path(folder) / "junit.xml") if args.junit_xml else None
        guard = _JunitGuard()
        try:
            with contextlib.redirect_stdout(output):
                code = pytest.main(_pytest_args(Path(folder), args.workers, junit), plugins=[recorder, guard])
        except KeyboardInterrupt:  # a signal outside pytest's own handling of it: what finished is still reported
            code = pytest.ExitCode.INTERRUPTED
        finally:
            _deliver_junit(junit, args.junit_xml, recorder, guard.failed)
            if recorder.progress is not None:
                recorder.progress.clear()
            if interrupts is not None:  # workers and engines that outlived pytest (and their descendants)
                interrupts.kill_leftovers(bool(interrupts.received))
    received = interrupts.received if interrupts is not None else None
    recorder.interrupted = received or ("SIGINT" if code in (pytest.ExitCode.INTERRUPTED, 130) else
                                        "SIGTERM" if code == 143 else None)
    return int(code), output.getvalue()


def _deliver_junit(written: str | None, path: str | None, recorder: RunRecorder, failed: bool = False) -> None:
    """Copy the JUnit XML pytest wrote in the run's folder to ``path`` (elsewhere, said in one line, when it cannot
    be written there: :func:`conformance.running.recorder.write_somewhere`)."""
    if failed and path:  # pytest could not write it whole (a full disk): written from the verdicts instead
        recorder.write_junit(path, complete=True)
        return
    if not written or not os.path.exists(written):
        recorder.junit_written = False
        return
    from conformance.running.recorder import write_somewhere

    went = write_somewhere(path, Path(written).read_text("utf-8"), "JUnit XML", "--junit-xml")
    recorder.junit_written = True
    recorder.junit_failed = went != path


class _JunitGuard:
    """pytest writes its JUnit XML in the run's folder when its session finishes; when that write fails (a full disk)
    the run goes on to its summary rather than end in pytest's traceback: the file is then written from the verdicts
    (:func:`_deliver_junit`), or said in one line where it could not be."""

    @staticmethod
    def _hook():
        import pytest

        return pytest.hookimpl(wrapper=True)

    failed = False

    def pytest_sessionfinish(self, session, exitstatus):
        try:
            return (yield)
        except OSError:  # the file pytest was writing is left partial: _deliver_junit sees to it
            self.failed = True
            return None


_JunitGuard.pytest_sessionfinish = _JunitGuard._hook()(_JunitGuard.pytest_sessionfinish)


def _pytest_args(folder: Path, workers: int, junit_xml: str | None) -> list[str]:
    ini = folder / "pytest.ini"
    ini.write_text("[pytest]\n", "utf-8")  # keep a project's own pytest configuration out of the run
    # The run's own folder as the only path: nothing is collected there, and the plugin adds the suite's items
    # under the node id trigger-conformance/<ruleset> (JUnit classname trigger-conformance.<ruleset>).
    args = [str(folder), "-c", str(ini), "--rootdir", str(folder), "-p", "conformance.running.pytest_plugin",
            "-p", "no:cacheprovider", "-q", "--no-header", "-W", "ignore::pytest.PytestAssertRewriteWarning",
            f"--basetemp={folder / 'basetemp'}"]  # pytest's (and xdist's) temporary folders go with the run
    args += ["-n", str(workers)] if workers > 1 else ["-p", "no:xdist"]
    if junit_xml:
        args += [f"--junit-xml={junit_xml}", "-o", "junit_suite_name=trigger-conformance"]
    return args


def _conclude(args: argparse.Namespace, recorder: RunRecorder, ran: tuple[int, str]) -> int:
    """After pytest: the JSON report, and the summary and exit code (or, interrupted, the partial report)."""
    code, output = ran
    interrupted, out = recorder.interrupted, sys.stdout
    empty = empty_shard(recorder.session, "--rules")
    if empty and not interrupted and code == 5:  # pytest's "no tests ran": nothing was given to this job to run
        code = PASSED
    if empty:
        print(empty, file=out)
    if recorder.late_signal:  # every verdict was recorded and the footer written: the run is complete
        print(f"trigger-conformance: {recorder.late_signal} came after every verdict was recorded; the reports are "
              f"complete", file=sys.stderr)
        if args.junit_xml and not recorder.junit_failed:  # pytest may have been stopped before it wrote its own
            recorder.write_junit(args.junit_xml, complete=True)
    elif not interrupted and code not in (0, 1):
        print(output[-4000:], file=sys.stderr)
        raise ConformanceError(f"the run stopped before every rule was checked (pytest exit code {code})")
    if interrupted:
        recorder.record_interrupted()  # (done already when pytest finished its session)
    report = recorder.report()
    stopped = recorder.exploration.get("stopped")
    if stopped:  # the time budget ran out: how far the stream was explored
        print(f"\nthe {stopped} stopped exploration after {recorder.exploration.get('explored', 0)} of "
              f"{recorder.session.spec.max_examples} scenarios; every rule was concluded from those", file=out)
    # Before anything else is printed (a closed stdout cannot lose it); elsewhere if its folder is gone (one line
    # of error on stderr: the other reports still written; the exit code is still what the rules said).
    report_json = recorder.write_report(args.report_json, report)
    if interrupted:  # a partial report: every verdict known so far (partial ones too), and what got none
        if not recorder.junit_written and not recorder.junit_failed:
            recorder.write_junit(args.junit_xml)  # pytest wrote none (or one without what was not checked)
        for line in not_passed(report["rules"], interrupted=True):  # the failures found so far, with replay commands
            print(line, file=out)
        junit_xml = None if recorder.junit_failed else args.junit_xml
        print("\n" + "\n".join(recorder.interrupted_lines(report_json, junit_xml)), file=sys.stderr)
        return exit_code(interrupted)
    _print_summary(report, out, args.strict_exercise, recorder.session.unavailable,
                   recorder.session.excluded_features(), recorder.session.silent_engine(),
                   judged(report["rules"], recorder.session))
    if report_json:
        print(f"report written to {report_json}", file=out)
    summary = report["summary"]
    bad = sum(summary.get(k, 0) for k in ("rules_failed", "rules_errored", "fixtures_failed", "fixtures_errored"))
    bad += _expectations(report["rules"], recorder.session, out)
    # A report written elsewhere (said on stderr, where) does not change the exit code: it says what the rules said.
    if args.strict_exercise:
        bad += len(never_applied(report["rules"]))
    message = None if args.accept_skips else nothing_checked(report["rules"], "--accept-skips")
    if message:
        print(f"\n{message}", file=out)
        bad += 1
    return FAILED if bad else PASSED


def judged(rules: list[dict], session: Session) -> dict[str, str]:
    """Rule key -> what the engine's expected failures and the suite's quarantine make of its verdict (only the
    rules they say something of)."""
    from conformance.documents.expectations import judge

    return {rule["key"]: verdict for rule in rules
            if (verdict := judge(rule, session.expected, session.quarantined)) is not None}


def _expectations(rules: list[dict], session: Session, out) -> int:
    """Print what the engine's expected failures and the suite's quarantine make of the verdicts; returns the change
    to the count of bad verdicts (an expected or quarantined failure does not count; an unexpected pass does)."""
    from conformance.documents.expectations import judge

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


def _print_summary(report: dict[str, Any], out, strict: bool = False, unavailable: dict | None = None,
                   excluded: list[str] | None = None, silent: bool = False,
                   expectations: dict[str, str] | None = None) -> None:
    expectations = expectations or {}
    counts = verdict_counts(expected_apart(report["summary"], sum(
        1 for rule in report["rules"] if rule["status"] == "failed" and expectations.get(rule["key"]) in EXPECTED)))
    if unavailable is not None:  # one problem, not one block per rule and fixture
        print(f"\nevery rule and fixture errored: the engine failed its handshake ({unavailable['outcome']}): "
              f"{unavailable['message']}", file=out)
        print(f"\n{counts} in {report['seconds']} s", file=out)
        return
    for line in not_passed(report["rules"], expectations=expectations):  # failures, each engine problem once
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
    never = never_applied(report["rules"])
    if never:
        consequence = ("so the run fails (--strict-exercise)" if strict else
                       f"so their pass says nothing ({unexercised_advice(excluded or [], '--max-examples', silent)}; "
                       f"--strict-exercise makes this fatal)")
        if strict and (excluded or silent):
            consequence += f" ({unexercised_advice(excluded or [], '--max-examples', silent)})"
        print(f"\n{'error' if strict else 'warning'}: {len(never)} rule(s) never applied in this run (or every "
              f"scenario was skipped), {consequence}: {', '.join(never)}", file=out)
    reasons = skip_summary(report["rules"])
    if reasons:
        print("", file=out)
        for line in reasons:
            print(line, file=out)
    print(f"\n{time_split_line(report)}", file=out)
    print(f"{counts} in {report['seconds']} s", file=out)


def time_split_line(report: dict[str, Any]) -> str:
    """The summary's line saying where the run's time went (the report's ``time_split``)."""
    split = report.get("time_split") or {}
    several = "; shrinking and explaining summed over the rules" if sum(
        1 for rule in report["rules"] if rule.get("failure")) > 1 else ""
    return (f"time: exploring {split.get('exploring', 0)} s, shrinking {split.get('shrinking', 0)} s, explaining "
            f"{split.get('explaining', 0)} s{several}")
